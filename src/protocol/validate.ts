// Validation of every message that arrives on the host from a webview: the webview renders hostile text, so the
// host trusts nothing it sends.
import type { CurationRequestMethod, CurationWebviewToHost, RequestMethod, StepKindView, WebviewState, WebviewToHost } from './messages';
import type { CalibrationView, DistributionView, MeanIntervalView, SolveRatesView, SpecGroupView, SpecStatsView } from './messages';
import { CURATOR_VERDICT_VIEWS, ENV_DEFECT_VIEWS, MAX_CALIBRATION_GROUPS, MAX_SOLVE_RATE_MODELS, MAX_REVIEW_TEXT, MAX_SPEC_TEXT, SPEC_OP_VIEWS, MAX_SPEC_HISTOGRAM, MAX_SPEC_ROWS, isDifficultyView, isEnvDefectView, isScoreFieldView, isTaskStatusView, POP_OUT_REGIONS } from './messages';

export type Validated = { ok: true; message: WebviewToHost } | { ok: false; error: string };

const STEP_KINDS: readonly StepKindView[] = ['system', 'user', 'thought', 'action', 'observation', 'tool_call', 'tool_result', 'submission'];
const MAX_STRING = 4096;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isStr = (v: unknown, max = MAX_STRING): v is string => typeof v === 'string' && v.length <= max;
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isKinds = (v: unknown): v is StepKindView[] =>
  Array.isArray(v) && v.length <= STEP_KINDS.length && v.every((k) => STEP_KINDS.includes(k as StepKindView));
const opt = <T>(v: unknown, check: (x: unknown) => x is T): boolean => v === undefined || check(v);

/** An action on the panel's task: no params. */
function noParams(method: string): (p: Obj) => string | undefined {
  return (p) => (Object.keys(p).length === 0 ? undefined : `${method} takes no params`);
}
/** An action on one repair suggestion: its id. */
function suggestionParam(method: string): (p: Obj) => string | undefined {
  return (p) => (isId(p.suggestion) && Object.keys(p).length === 1 ? undefined : `${method} needs suggestion (a suggestion id) and nothing else`);
}

/** For each request method: a check of its params, returning an error text or undefined. */
const paramChecks: Record<RequestMethod, (p: Obj) => string | undefined> = {
  getSteps: (p) =>
    isStr(p.column, 256) && isInt(p.start) && isInt(p.count, 1, 1000) && opt(p.kinds, isKinds) ? undefined : 'getSteps needs column, start, count (1-1000), kinds?',
  getStepText: (p) =>
    isStr(p.column, 256) && isInt(p.step) && isInt(p.offset) && isInt(p.length, 1, 1 << 20) ? undefined : 'getStepText needs column, step, offset, length',
  locateStep: (p) => (isStr(p.column, 256) && isInt(p.step) && opt(p.kinds, isKinds) ? undefined : 'locateStep needs column, step, kinds?'),
  search: (p) =>
    isInt(p.searchId) && isStr(p.pattern, 1000) && isBool(p.regex) && isBool(p.caseSensitive) && opt(p.kinds, isKinds)
      ? undefined
      : 'search needs searchId, pattern (at most 1000 characters), regex, caseSensitive, kinds?',
  cancelSearch: (p) => (isInt(p.searchId) ? undefined : 'cancelSearch needs searchId'),
  openDiff: (p) => (isStr(p.column, 256) && isStr(p.path) ? undefined : 'openDiff needs column and path'),
  setViewed: (p) => (isStr(p.column, 256) && opt(p.path, (v): v is string => isStr(v, 4096)) && isBool(p.viewed) ? undefined : 'setViewed needs column, path? and viewed (true or false)'),
  compareColumns: (p) => (isStr(p.left, 256) && isStr(p.right, 256) && isStr(p.path) ? undefined : 'compareColumns needs left, right and path'),
  openTest: (p) => (isStr(p.testId, 256) ? undefined : 'openTest needs testId'),
  openPatch: (p) => (isStr(p.column, 256) ? undefined : 'openPatch needs column'),
  popOut: (p) =>
    typeof p.region === 'string' && (POP_OUT_REGIONS as readonly string[]).includes(p.region) && opt(p.tab, (v): v is string => isStr(v, 64))
      ? undefined
      : `popOut needs region (${POP_OUT_REGIONS.join(', ')}) and tab?`,
  openRunLog: (p) => (isStr(p.column, 256) && opt(p.testId, (v): v is string => isStr(v, 256)) ? undefined : 'openRunLog needs column, testId?'),
  openProbeDiff: (p) =>
    (p.report === 'mutants' || p.report === 'cheats' || p.report === 'alternatives' || p.report === 'variants') && isStr(p.id, 256)
      ? undefined
      : 'openProbeDiff needs report (mutants, cheats, alternatives or variants) and id',
  nextTask: noParams('nextTask'),
  previousTask: noParams('previousTask'),
  startReviewMode: noParams('startReviewMode'),
  requestRepair: noParams('requestRepair'),
  runGold: noParams('runGold'),
  reviewRepair: suggestionParam('reviewRepair'),
  acceptRepair: suggestionParam('acceptRepair'),
  rejectRepair: suggestionParam('rejectRepair'),
  showRepairPrompt: suggestionParam('showRepairPrompt'),
  showRepairMatrix: suggestionParam('showRepairMatrix'),
  label: (p) =>
    isId(p.attempt) && isId(p.spec) && isVerdict(p.verdict) && opt(p.note, isText) && opt(p.evidence, isEvidenceList)
      ? undefined
      : 'label needs attempt, spec, verdict (satisfied, violated or unsure), note? (text), evidence? (at most 200 links)',
  score: (p) =>
    isInt(p.underspecified, 0, 3) &&
    isInt(p.fnSeverity, 0, 3) &&
    isInt(p.fpSeverity, 0, 3) &&
    Array.isArray(p.envDefects) &&
    p.envDefects.length <= ENV_DEFECT_VIEWS.length &&
    p.envDefects.every(isEnvDefectView) &&
    opt(p.otherIssues, isText) &&
    opt(p.difficulty, isDifficultyView) &&
    opt(p.note, isText)
      ? undefined
      : 'score needs underspecified, fnSeverity, fpSeverity (0-3), envDefects (a list of dependency_drift, resource_mismatch, flaky), otherIssues?, difficulty? (<15m, 15m-1h, 1-4h or >4h), note?',
  submit: (p) => (opt(p.note, isText) ? undefined : 'submit takes note? (text)'),
  transition: (p) => (isTaskStatusView(p.to) && opt(p.note, isText) ? undefined : 'transition needs to (a task status) and note?'),
  approve: (p) =>
    Array.isArray(p.waivers) && p.waivers.length <= 50 && p.waivers.every((w) => isObj(w) && isStr(w.rule, 100) && isText(w.reason)) && opt(p.note, isText)
      ? undefined
      : 'approve needs waivers ([{rule, reason}], at most 50) and note?',
  reject: (p) => (isText(p.reason) ? undefined : 'reject needs reason (text)'),
  undo: (p) => (opt(p.event, isId) ? undefined : 'undo takes event? (an event id)'),
  decideSuggestion: (p) =>
    isId(p.suggestion) && (p.decision === 'confirmed' || p.decision === 'dismissed') && opt(p.note, isText)
      ? undefined
      : 'decideSuggestion needs suggestion, decision (confirmed or dismissed), note?',
  acceptFinding: (p) => (isId(p.findings) && isId(p.spec) && opt(p.note, isText) ? undefined : 'acceptFinding needs findings (an event id), spec, note?'),
  dismissFinding: (p) => (isId(p.findings) && isId(p.spec) && opt(p.note, isText) ? undefined : 'dismissFinding needs findings (an event id), spec, note?'),
  openEvidence: (p) => (isEvidence(p.link) ? undefined : 'openEvidence needs link (an evidence link)'),
  reviewQueue: (p) =>
    (p.action === 'next' || p.action === 'skip' || p.action === 'stop') && opt(p.submit, isBool) ? undefined : 'reviewQueue needs action (next, skip or stop) and submit?',
  'specs.edit': (p) => (isInt(p.revision) && Object.keys(p).length === 2 ? specOpProblem(p.op) : 'specs.edit needs revision (the revision shown) and op (a spec operation) and nothing else'),
  'specs.undo': (p) => (isInt(p.revision) && Object.keys(p).length === 1 ? undefined : 'specs.undo needs revision (the revision shown) and nothing else'),
};

/** Most ids in one list of a spec operation (tests to map, the order of every spec). */
const MAX_SPEC_LIST = 5000;
const isIdList = (v: unknown): v is string[] => Array.isArray(v) && v.length <= MAX_SPEC_LIST && v.every(isId);
const isSpecText = (v: unknown): v is string => isStr(v, MAX_SPEC_TEXT) && !v.includes('\0');

/**
 * The shape of a spec operation, shallowly: known op, strings and lists of the right kind and size. The host checks it
 * again deeply (checkSpecOp of src/core/specs/edit.ts) and against the task (editSpecs).
 */
function specOpProblem(v: unknown): string | undefined {
  if (!isObj(v)) return 'specs.edit op must be an object';
  if (!SPEC_OP_VIEWS.some((k) => k === v.op)) return `specs.edit op.op must be one of ${SPEC_OP_VIEWS.join(', ')}`;
  const text = `specs.edit ${String(v.op)}: text must be at most ${MAX_SPEC_TEXT} characters, without NUL`;
  const cat = opt(v.category, (x): x is string => isStr(x, 100));
  switch (v.op) {
    case 'add':
      return isSpecText(v.text) && isStr(v.category, 100) && opt(v.dependsOn, isIdList) && opt(v.tests, isIdList) && opt(v.at, (x): x is number => isInt(x)) ? undefined : `${text}; add needs text, category, dependsOn?, tests?, at?`;
    case 'edit':
      return isId(v.spec) && opt(v.text, isSpecText) && cat && opt(v.dependsOn, isIdList) ? undefined : `${text}; edit needs spec, text?, category?, dependsOn?`;
    case 'split':
      return isId(v.spec) &&
        Array.isArray(v.parts) &&
        v.parts.length <= 100 &&
        v.parts.every((x) => isObj(x) && isSpecText(x.text) && opt(x.category, (c): c is string => isStr(c, 100)) && opt(x.tests, isIdList))
        ? undefined
        : `${text}; split needs spec and parts (at most 100: text, category?, tests?)`;
    case 'merge':
      return isIdList(v.specs) && isSpecText(v.text) && cat ? undefined : `${text}; merge needs specs, text, category?`;
    case 'delete':
      return isId(v.spec) ? undefined : 'specs.edit delete needs spec';
    case 'reorder':
      return isIdList(v.order) ? undefined : 'specs.edit reorder needs order (spec ids)';
    case 'depends':
      return isId(v.spec) && isIdList(v.dependsOn) ? undefined : 'specs.edit depends needs spec and dependsOn (spec ids)';
    case 'map':
      return isId(v.spec) && (v.mode === 'replace' || v.mode === 'add' || v.mode === 'remove') && isIdList(v.tests) ? undefined : 'specs.edit map needs spec, mode (replace, add or remove) and tests';
    default:
      return isId(v.spec) && isId(v.test) ? undefined : 'specs.edit toggle needs spec and test';
  }
}

const isId = (v: unknown): v is string => isStr(v, 300) && v.length > 0;
const isText = (v: unknown): v is string => isStr(v, MAX_REVIEW_TEXT) && !v.includes('\0');
const isVerdict = (v: unknown): boolean => CURATOR_VERDICT_VIEWS.some((x) => x === v);

/** An evidence link's shape (the log checks it against the task: attempts, tests and specs that exist). */
function isEvidence(v: unknown): boolean {
  if (!isObj(v)) return false;
  switch (v.kind) {
    case 'trajectory_step':
      return isId(v.attempt) && isInt(v.step, 0, 10_000_000);
    case 'test':
      return isId(v.test);
    case 'log_line':
      return isId(v.run) && isInt(v.line, 1, 1_000_000_000) && (v.stream === undefined || v.stream === 'stdout' || v.stream === 'stderr');
    case 'diff_hunk':
      return (v.patch === 'attempt' || v.patch === 'gold' || v.patch === 'tests') && opt(v.attempt, isId) && isStr(v.file) && v.file.length > 0 && isInt(v.hunk, 0, 1_000_000);
    case 'spec':
      return isId(v.spec);
    case 'finding':
      return isId(v.findings) && isId(v.spec);
    default:
      return false;
  }
}
const isEvidenceList = (v: unknown): v is unknown[] => Array.isArray(v) && v.length <= 200 && v.every(isEvidence);

function validState(s: unknown): s is WebviewState {
  return (
    isObj(s) &&
    isStr(s.taskId, 256) &&
    opt(s.activeColumn, (v): v is string => isStr(v, 256)) &&
    opt(s.stepKinds, isKinds) &&
    opt(s.search, (v): v is string => isStr(v, 1000)) &&
    opt(s.regex, isBool) &&
    opt(s.caseSensitive, isBool)
  );
}

/** Checks that `raw` is a well-formed message from the webview; never throws. */
export function validateWebviewMessage(raw: unknown): Validated {
  if (!isObj(raw)) return { ok: false, error: 'message is not an object' };
  switch (raw.type) {
    case 'ready':
      if (!isInt(raw.protocol)) return { ok: false, error: 'ready needs a protocol version' };
      if (raw.state !== undefined && !validState(raw.state)) return { ok: false, error: 'ready has an invalid state' };
      return { ok: true, message: raw as WebviewToHost };
    case 'cited':
      return isInt(raw.citeId, 1) && isBool(raw.ok) && isStr(raw.message, 2000) && opt(raw.pair, (p): p is { attempt: string; spec: string } => isObj(p) && isId(p.attempt) && isId(p.spec))
        ? { ok: true, message: raw as WebviewToHost }
        : { ok: false, error: 'cited needs citeId, ok, message and pair? ({attempt, spec})' };
    case 'uiState':
      return validState(raw.state) ? { ok: true, message: raw as WebviewToHost } : { ok: false, error: 'uiState has an invalid state' };
    case 'request': {
      if (!isInt(raw.id, 1)) return { ok: false, error: 'request needs a positive integer id' };
      const method = raw.method;
      if (typeof method !== 'string' || !Object.prototype.hasOwnProperty.call(paramChecks, method)) {
        return { ok: false, error: `unknown request method ${JSON.stringify(String(method)).slice(0, 80)}` };
      }
      if (!isObj(raw.params)) return { ok: false, error: `${method} needs params` };
      const err = paramChecks[method as RequestMethod](raw.params);
      return err ? { ok: false, error: err } : { ok: true, message: raw as WebviewToHost };
    }
    default:
      return { ok: false, error: `unknown message type ${JSON.stringify(String(raw.type)).slice(0, 80)}` };
  }
}

// ---- the statistics and adjudication panels -------------------------------------------------------------------

export type ValidatedCuration = { ok: true; message: CurationWebviewToHost } | { ok: false; error: string };

const scoreValue = (v: unknown): boolean => isInt(v, 0, 3) || isStr(v, 20) || (Array.isArray(v) && v.length <= 10 && v.every((x) => isStr(x, 100)));

const curationChecks: Record<CurationRequestMethod, (p: Obj) => string | undefined> = {
  adjudicate: (p) => {
    if (!isId(p.taskId) || !opt(p.note, isText)) return 'adjudicate needs taskId and note?';
    if (p.target === 'label') return isId(p.attempt) && isId(p.spec) && isVerdict(p.verdict) ? undefined : 'adjudicate of a label needs attempt, spec and verdict';
    if (p.target === 'score') return isScoreFieldView(p.field) && scoreValue(p.value) ? undefined : 'adjudicate of a score needs field (a score field) and value';
    return 'adjudicate needs target label or score';
  },
  openTask: (p) => (isId(p.taskId) ? undefined : 'openTask needs taskId'),
  showSettled: (p) => (isBool(p.show) ? undefined : 'showSettled needs show'),
  filterCandidates: (p) => {
    const list = (v: unknown, ok: (x: unknown) => boolean): boolean => v === undefined || (Array.isArray(v) && v.length <= 50 && v.every(ok));
    if (!list(p.statuses, (x) => isTaskStatusView(x))) return 'filterCandidates: statuses must be task statuses';
    if (!list(p.categories, (x) => isStr(x, 200))) return 'filterCandidates: categories must be short texts';
    if (!list(p.models, (x) => isStr(x, 300))) return 'filterCandidates: models must be short texts';
    if (p.mixedSuccess !== undefined && p.mixedSuccess !== true) return 'filterCandidates: mixedSuccess must be true when given';
    return p.statuses === undefined && p.categories === undefined && p.models === undefined && p.mixedSuccess === undefined ? 'filterCandidates needs statuses, categories, models or mixedSuccess' : undefined;
  },
};

/** Checks a message from the statistics or adjudication webview; never throws. */
export function validateCurationMessage(raw: unknown): ValidatedCuration {
  if (!isObj(raw)) return { ok: false, error: 'message is not an object' };
  if (raw.type === 'ready') return isInt(raw.protocol) ? { ok: true, message: raw as CurationWebviewToHost } : { ok: false, error: 'ready needs a protocol version' };
  if (raw.type !== 'request') return { ok: false, error: `unknown message type ${JSON.stringify(String(raw.type)).slice(0, 80)}` };
  if (!isInt(raw.id, 1)) return { ok: false, error: 'request needs a positive integer id' };
  const method = raw.method;
  if (typeof method !== 'string' || !Object.prototype.hasOwnProperty.call(curationChecks, method)) {
    return { ok: false, error: `unknown request method ${JSON.stringify(String(method)).slice(0, 80)}` };
  }
  if (!isObj(raw.params)) return { ok: false, error: `${method} needs params` };
  const err = curationChecks[method as CurationRequestMethod](raw.params);
  return err ? { ok: false, error: err } : { ok: true, message: raw as CurationWebviewToHost };
}

// ---- the statistics panel's spec figures (host -> webview) ----------------------------------------------------------
// The panel shows them only when they have this shape, so a host of another version cannot break the page.

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isCount = (v: unknown): v is number => isInt(v);
const isShare = (v: unknown): v is number => isNum(v) && v >= 0 && v <= 1;

function isMeanInterval(v: unknown): v is MeanIntervalView {
  return isObj(v) && isNum(v.mean) && isNum(v.low) && isNum(v.high) && v.low <= v.high;
}

function isDistribution(v: unknown): v is DistributionView {
  if (!isObj(v) || !isCount(v.count) || !Array.isArray(v.histogram) || v.histogram.length > 100 || !v.histogram.every(isCount)) return false;
  return ['min', 'q1', 'median', 'q3', 'max', 'mean'].every((k) => (v.count === 0 ? v[k] === undefined || isShare(v[k]) : isShare(v[k])));
}

function isSpecGroup(v: unknown): v is SpecGroupView {
  return (
    isObj(v) &&
    isStr(v.source, 256) &&
    isCount(v.tasks) &&
    isCount(v.specs) &&
    isCount(v.tasksWithSpecs) &&
    opt(v.specsPerTask, isMeanInterval) &&
    opt(v.categoriesPerTask, isMeanInterval) &&
    Array.isArray(v.histogram) &&
    v.histogram.length <= MAX_SPEC_HISTOGRAM &&
    v.histogram.every((h) => isObj(h) && isCount(h.specs) && isCount(h.tasks) && opt(h.orMore, isBool)) &&
    isDistribution(v.coupling)
  );
}

/** What is wrong with the spec figures of a statistics model, or undefined when they can be shown. */
export function specStatsViewProblem(v: unknown): string | undefined {
  if (!isObj(v)) return 'specs is not an object';
  if (!isCount(v.resamples) || !isCount(v.seed) || !isShare(v.confidence)) return 'specs needs resamples, seed and confidence';
  if (!isSpecGroup(v.all)) return 'specs.all is not a source group';
  if (!Array.isArray(v.bySource) || v.bySource.length > MAX_SPEC_ROWS || !v.bySource.every(isSpecGroup)) return `specs.bySource needs at most ${MAX_SPEC_ROWS} source groups`;
  if (!isCount(v.moreSources) || !isCount(v.moreCategories)) return 'specs needs moreSources and moreCategories';
  const cats = v.couplingByCategory;
  if (!Array.isArray(cats) || cats.length > MAX_SPEC_ROWS || !cats.every((c) => isObj(c) && isStr(c.category, 256) && isCount(c.specs) && isDistribution(c.share))) {
    return `specs.couplingByCategory needs at most ${MAX_SPEC_ROWS} categories`;
  }
  const e = v.evidence;
  if (!isObj(e) || !['pairs', 'coupledPairs', 'sharedTests', 'declared', 'coFlip', 'measuredPairs'].every((k) => isCount(e[k]))) return 'specs.evidence needs six counts';
  return undefined;
}

export function isSpecStatsView(v: unknown): v is SpecStatsView {
  return specStatsViewProblem(v) === undefined;
}

// ---- the statistics panel's calibration figures (host -> webview) --------------------------------------------------

function isCalibrationFigure(v: unknown): boolean {
  if (!isObj(v)) return false;
  for (const k of ['value', 'low', 'high']) if (v[k] !== undefined && !isNum(v[k])) return false;
  for (const k of ['numerator', 'denominator']) if (v[k] !== undefined && !isCount(v[k])) return false;
  return true;
}

function isCalibrationTable(v: unknown): boolean {
  return isObj(v) && ['pairs', 'tp', 'fp', 'fn', 'tn'].every((k) => isCount(v[k])) && isCalibrationFigure(v.precision) && isCalibrationFigure(v.recall) && isCalibrationFigure(v.kappa);
}

/** What is wrong with the calibration figures of a statistics model, or undefined when they can be shown. */
export function calibrationViewProblem(v: unknown): string | undefined {
  if (!isObj(v)) return 'calibration is not an object';
  if (!isCount(v.resamples) || !isCount(v.seed) || !isShare(v.confidence)) return 'calibration needs resamples, seed and confidence';
  if (!isCount(v.moreGroups) || !isCount(v.notCurrent) || !isCount(v.unknownPairs)) return 'calibration needs moreGroups, notCurrent and unknownPairs';
  const g = v.groups;
  if (
    !Array.isArray(g) ||
    g.length > MAX_CALIBRATION_GROUPS ||
    !g.every(
      (x) =>
        isObj(x) &&
        isStr(x.promptVersion, 256) &&
        isStr(x.model, 256) &&
        ['findings', 'unlabelled', 'undecided', 'agentUnsure'].every((k) => isCount(x[k])) &&
        isCalibrationTable(x.falsePositive) &&
        isCalibrationTable(x.falseNegative),
    )
  )
    return `calibration.groups needs at most ${MAX_CALIBRATION_GROUPS} groups of two tables`;
  return undefined;
}

export function isCalibrationView(v: unknown): v is CalibrationView {
  return calibrationViewProblem(v) === undefined;
}

// ---- the statistics panel's solve rates (host -> webview) ----------------------------------------------------------

const BUCKETS = ['neverSolved', 'inBand', 'alwaysSolved', 'otherOutside'];
const isBuckets = (v: unknown): boolean => isObj(v) && BUCKETS.every((k) => isCount(v[k]));

/** What is wrong with the solve rates of a statistics model, or undefined when they can be shown. */
export function solveRatesViewProblem(v: unknown): string | undefined {
  if (!isObj(v)) return 'solveRates is not an object';
  const b = v.band;
  if (!isObj(b) || !isStr(b.text, 64) || !isShare(b.low) || !isShare(b.high) || b.low > b.high || !isBool(b.inclusive)) return 'solveRates.band needs text, low <= high (shares) and inclusive';
  if (!opt(v.bandProblem, (x): x is string => isStr(x, 500))) return 'solveRates.bandProblem must be a short text';
  const f = v.funnel;
  if (!isObj(f) || !['imported', 'measured', 'inBand', 'reviewed', 'approved'].every((k) => isCount(f[k]))) return 'solveRates.funnel needs five counts';
  if (!isBuckets(v.tasks) || !isCount((v.tasks as Obj).unmeasured)) return 'solveRates.tasks needs unmeasured, neverSolved, inBand, alwaysSolved and otherOutside';
  if (!Array.isArray(v.histogram) || v.histogram.length !== 10 || !v.histogram.every(isCount)) return 'solveRates.histogram needs ten counts';
  const m = v.models;
  if (
    !Array.isArray(m) ||
    m.length > MAX_SOLVE_RATE_MODELS ||
    !m.every((x) => isObj(x) && isStr(x.model, 256) && isCount(x.solved) && isCount(x.attempts) && x.solved <= x.attempts && opt(x.rate, isShare) && isBuckets(x.tasks))
  )
    return `solveRates.models needs at most ${MAX_SOLVE_RATE_MODELS} models with solved <= attempts`;
  if (!isCount(v.moreModels)) return 'solveRates.moreModels must be a count';
  return undefined;
}

export function isSolveRatesView(v: unknown): v is SolveRatesView {
  return solveRatesViewProblem(v) === undefined;
}
