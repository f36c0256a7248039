// From predictions, trajectories and evaluation output to attempts: which prediction goes with which trajectory,
// which report belongs to which attempt, what matched nothing and why, and attempt ids that stay the same from one
// import to the next.
import type { RecordedResult, TrajectoryFormat, TrajectorySummary } from '../model';
import { isProbeId } from '../model';
import type { InstanceRow } from './instances';
import type { Prediction } from './predictions';
import type { Verdict } from './reports';

export interface TrajectoryItem {
  /** Path to read or copy it from. */
  path: string;
  /** Path as the import report shows it. */
  display: string;
  /** Bytes of a multi-instance file (OpenHands output.jsonl) that hold this instance. */
  byteRange?: [number, number];
  summary: TrajectorySummary;
  /** From the trajectory, else from its file name. */
  instanceId?: string;
}

/** One solver run: a folder holding predictions and/or one trajectory per instance, or a loose predictions file. */
export interface SolverRun {
  /** Folder (or file) it was found at, as shown in reports; identifies the run. */
  dir: string;
  folderName: string;
  /** The run folder's real path (not for a loose file): reports found inside it belong to this run. */
  root?: string;
  /** Model names the run's own metadata gives (metadata.yaml, SWE-agent's args.yaml / run_batch.config.yaml). */
  metadataModels?: string[];
  /** Other names the metadata gives the run (`info.name`): reports may use them. */
  metadataNames?: string[];
  predictions: Prediction[];
  trajectories: TrajectoryItem[];
  /** A predictions file given on its own: every model in it is a run of its own. */
  loose?: boolean;
}

export interface PlannedAttempt {
  instanceId: string;
  model: string;
  agent: string;
  /** The run's name: its folder's name; for a loose predictions file, its model_name_or_path. */
  run: string;
  runDir: string;
  /** The run folder's real path, when the attempt came from one (see SolverRun.root). */
  runRoot?: string;
  /** The prediction's `model_name_or_path` as written (a model, or SWE-agent's run name): part of its identity. */
  predModel?: string;
  /** Other names the solver is known by (the run folder), for matching reports. */
  aliases: string[];
  patch: string;
  /** Where the patch came from, e.g. `preds.json:3` or `trajectory submission`. */
  patchFrom: string;
  hasPrediction: boolean;
  trajectory?: TrajectoryItem;
  /** A trajectory held inside another file (e.g. a custom harness's raw agent output). */
  trajectoryText?: { fileName: string; content: string; from: string };
  costUsd?: number;
  tokens?: { input?: number; output?: number };
  claimed?: { status?: string; summary?: string };
  recorded: RecordedResult[];
  /** Assigned by assignAttemptIds. */
  id?: string;
}

export interface Unmatched {
  kind: 'prediction' | 'trajectory' | 'report' | 'instance';
  instanceId?: string;
  model?: string;
  file: string;
  line?: number;
  reason: string;
  /** Entries that stand for many instances (a run-level report): every instance id. */
  instanceIds?: string[];
}

export interface Skipped {
  kind: 'prediction' | 'trajectory' | 'report';
  instanceId: string;
  model?: string;
  file: string;
  line?: number;
  reason: string;
}

const AGENTS: Partial<Record<TrajectoryFormat, string>> = {
  'swe-agent': 'swe-agent',
  'swe-agent-retry': 'swe-agent',
  'mini-swe-agent': 'mini-swe-agent',
  'openhands-events': 'openhands',
  'openhands-eval': 'openhands',
  atif: 'harbor',
  'claude-code': 'claude-code',
  codex: 'codex',
  'codex-exec': 'codex',
  'chat-messages': 'chat',
  litellm: 'litellm',
  agentless: 'agentless',
  autocoderover: 'autocoderover',
  'openhands-resolver': 'openhands',
};

export function agentOf(format: TrajectoryFormat): string {
  return AGENTS[format] ?? format;
}

const normPatch = (p: string) => p.replace(/\r\n/g, '\n').trim();
const samePatch = (a: string, b: string) => normPatch(a) === normPatch(b);

/** Pairs a run's predictions with its trajectories by instance id. */
export function attemptsOfRun(run: SolverRun): { attempts: PlannedAttempt[]; warnings: Array<{ file: string; line?: number; message: string }> } {
  const warnings: Array<{ file: string; line?: number; message: string }> = [];
  const models = [...new Set(run.predictions.map((p) => p.model).filter((m): m is string => m !== undefined))];
  // A run folder is named after itself; a loose file, or a folder of several models' predictions, after each model.
  const runName = (p?: Prediction) => (run.loose || models.length > 1 ? p?.model : undefined) ?? run.folderName;
  const metaModel = run.metadataModels?.[0];
  const where = run.root !== undefined ? { runRoot: run.root } : {};
  const byId = new Map<string, Prediction[]>();
  for (const p of run.predictions) byId.set(p.instanceId, [...(byId.get(p.instanceId) ?? []), p]);
  const used = new Set<Prediction>();
  const attempts: PlannedAttempt[] = [];

  for (const t of run.trajectories) {
    const id = t.instanceId;
    if (!id) continue; // reported by the caller
    const candidates = (byId.get(id) ?? []).filter((p) => !used.has(p));
    const sub = t.summary.submission;
    const pred = candidates.find((p) => sub !== undefined && samePatch(p.patch, sub)) ?? candidates[0];
    if (pred) used.add(pred);
    if (pred && sub !== undefined && sub.trim() && !samePatch(pred.patch, sub)) {
      warnings.push({ file: pred.file, line: pred.line, message: `${id}: the prediction differs from the submission in ${t.display}; the attempt uses the prediction` });
    }
    const patch = pred ? pred.patch : (sub ?? '');
    attempts.push({
      instanceId: id,
      model: t.summary.model ?? metaModel ?? pred?.model ?? runName(pred),
      agent: agentOf(t.summary.format),
      run: runName(pred),
      runDir: run.dir,
      ...where,
      ...(pred?.model !== undefined ? { predModel: pred.model } : {}),
      aliases: [...new Set([run.folderName, ...(run.metadataModels ?? []), ...(run.metadataNames ?? [])])],
      patch,
      patchFrom: pred ? `${pred.file}:${pred.line}` : sub !== undefined ? `submission in ${t.display}` : 'none (the trajectory records no submission)',
      hasPrediction: pred !== undefined,
      trajectory: t,
      ...(t.summary.costUsd !== undefined ? { costUsd: t.summary.costUsd } : {}),
      ...(t.summary.tokens !== undefined ? { tokens: t.summary.tokens } : {}),
      ...(t.summary.exitStatus !== undefined ? { claimed: { status: t.summary.exitStatus } } : {}),
      recorded: [],
    });
  }
  for (const p of run.predictions) {
    if (used.has(p)) continue;
    attempts.push({
      instanceId: p.instanceId,
      model: metaModel ?? p.model ?? runName(p),
      agent: '',
      run: runName(p),
      runDir: run.loose ? `${run.dir}#${p.model ?? ''}` : run.dir,
      ...where,
      ...(p.model !== undefined ? { predModel: p.model } : {}),
      aliases: run.loose ? [] : [...new Set([run.folderName, ...(run.metadataModels ?? []), ...(run.metadataNames ?? [])])],
      patch: p.patch,
      patchFrom: `${p.file}:${p.line}`,
      hasPrediction: true,
      recorded: [],
    });
  }
  return { attempts, warnings };
}

export interface Placement {
  kept: PlannedAttempt[];
  unmatched: Unmatched[];
  skipped: Skipped[];
}

/** Keeps attempts whose instance was imported; a gold prediction equal to the row's own patch is not an attempt. */
export function placeAttempts(attempts: PlannedAttempt[], instances: Map<string, InstanceRow>): Placement {
  const out: Placement = { kept: [], unmatched: [], skipped: [] };
  for (const a of attempts) {
    const row = instances.get(a.instanceId);
    const [file, line] = splitRef(a);
    if (!row) {
      out.unmatched.push({
        kind: a.trajectory && !a.hasPrediction ? 'trajectory' : 'prediction',
        instanceId: a.instanceId,
        model: a.model,
        file,
        ...(line !== undefined ? { line } : {}),
        reason: `no instance row with this id${suggestion(a.instanceId, instances)}`,
      });
      continue;
    }
    if (a.model.toLowerCase() === 'gold' && !a.trajectory && row.patch !== undefined && samePatch(a.patch, row.patch)) {
      out.skipped.push({
        kind: 'prediction',
        instanceId: a.instanceId,
        model: a.model,
        file,
        ...(line !== undefined ? { line } : {}),
        reason: "a gold prediction equal to the row's own patch (already gold.patch)",
      });
      continue;
    }
    out.kept.push(a);
  }
  return out;
}

function splitRef(a: PlannedAttempt): [string, number | undefined] {
  if (a.trajectory && !a.hasPrediction) return [a.trajectory.display, undefined];
  const m = /^(.*):(\d+)$/.exec(a.patchFrom);
  return m ? [m[1] as string, Number(m[2])] : [a.runDir, undefined];
}

/** "did you mean" for ids that differ from a known one only in their owner part (`requests__requests-1` vs `psf__requests-1`). */
function suggestion(id: string, instances: Map<string, InstanceRow>): string {
  const tail = id.includes('__') ? id.slice(id.indexOf('__') + 2) : id;
  const hit = [...instances.keys()].find((k) => k !== id && k.endsWith(`__${tail}`));
  return hit ? ` (an instance "${hit}" exists: a different owner?)` : '';
}

/** A prediction that reached the importer twice: `dropped` was folded into the attempt that `kept` made. */
export interface MergedPrediction {
  instanceId: string;
  model: string;
  /** `file:line` (or trajectory) of the copy that was kept. */
  kept: string;
  dropped: string;
}

/**
 * The same solver output reached us twice (a loose predictions file and the run folder that holds the same
 * predictions, or the same predictions in two files): one attempt, when instance, model and patch bytes agree and at
 * most one of them has a trajectory. Two runs that each have a trajectory stay two attempts. An empty patch is a
 * patch like any other here: two empty predictions of one model for one instance are one attempt.
 */
export function mergeSameSolver(attempts: PlannedAttempt[]): { attempts: PlannedAttempt[]; merged: MergedPrediction[] } {
  const out: PlannedAttempt[] = [];
  const merged: MergedPrediction[] = [];
  const byKey = new Map<string, number[]>();
  for (const a of attempts) {
    // Two predictions must agree byte for byte; a trajectory's submission may differ from its prediction in line
    // endings and surrounding blank lines, as when a run's trajectory is paired with its prediction.
    const key = `${a.instanceId}\u0000${normPatch(a.patch)}`;
    const slots = byKey.get(key) ?? [];
    const at = slots.find((i) => {
      const b = out[i] as PlannedAttempt;
      if (a.trajectory && b.trajectory) return false;
      if (a.hasPrediction && b.hasPrediction && a.patch !== b.patch) return false;
      return sameModel(b.model, a.model) || (a.predModel !== undefined && b.predModel !== undefined && sameModel(a.predModel, b.predModel));
    });
    if (at === undefined) {
      byKey.set(key, [...slots, out.length]);
      out.push(a);
      continue;
    }
    const twin = out[at] as PlannedAttempt;
    // The copy with the trajectory, else the one from a run folder, else the first, is kept.
    const rank = (x: PlannedAttempt) => (x.trajectory ? 2 : 0) + (x.runRoot !== undefined ? 1 : 0);
    const [keep, drop] = rank(a) > rank(twin) ? [a, twin] : [twin, a];
    const named = [keep, drop].find((x) => x.runRoot !== undefined) ?? [keep, drop].find((x) => x.hasPrediction) ?? keep;
    const pred = [keep, drop].find((x) => x.hasPrediction);
    const combined: PlannedAttempt = {
      ...keep,
      // A run folder names the run; the trajectory contributes model, agent, cost and claim.
      run: named.run,
      runDir: (named.runRoot !== undefined ? named : keep).runDir,
      ...(named.runRoot !== undefined ? { runRoot: named.runRoot } : {}),
      ...(pred?.predModel !== undefined ? { predModel: pred.predModel } : {}),
      agent: keep.agent || drop.agent,
      aliases: [...new Set([...keep.aliases, ...drop.aliases, drop.run])],
      patchFrom: pred ? pred.patchFrom : keep.patchFrom,
      hasPrediction: keep.hasPrediction || drop.hasPrediction,
      recorded: [...keep.recorded, ...drop.recorded],
    };
    out[at] = combined;
    const ref = (x: PlannedAttempt) => (x.hasPrediction ? x.patchFrom : (x.trajectory?.display ?? x.patchFrom));
    merged.push({ instanceId: a.instanceId, model: combined.model, kept: ref(keep), dropped: ref(drop) });
  }
  return { attempts: out, merged };
}

export function sameModel(a: string, b: string): boolean {
  return normName(a) === normName(b);
}

const normName = (s: string) => s.trim().toLowerCase().replace(/__/g, '/');

export function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/__/g, '-')
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/-{2,}/g, '-');
}

const lastSegment = (s: string) => s.slice(s.lastIndexOf('/') + 1);

// ---- reports -------------------------------------------------------------------------------------------------

/** A name that may identify the solver of a report; `exact` names come from the harness itself (its model folder). */
export interface Hint {
  name: string;
  exact: boolean;
  /** Names a run (a run id), not a model. */
  run?: boolean;
}

export interface ReportEntry {
  instanceId: string;
  hints: Hint[];
  verdict: Verdict;
  /** The report's file, as shown. */
  file: string;
  level: 'instance' | 'run';
  /** The real path of the solver run folder the report sits in, when it sits in one: its attempts are the report's. */
  runRoot?: string;
  /** A verdict on the gold patch (a gold validation run), not on an attempt. */
  gold?: boolean;
  /** A patch found beside the report (a harness's patch.diff): lets an unmatched report make its own attempt. */
  patch?: { text: string; from: string };
  agent?: string;
  costUsd?: number;
  tokens?: { input?: number; output?: number };
  trajectoryText?: { fileName: string; content: string; from: string };
}

function containsToken(hay: string, needle: string): boolean {
  if (needle.length < 4) return false;
  let at = hay.indexOf(needle);
  while (at >= 0) {
    const before = at === 0 || /[-.]/.test(hay[at - 1] as string);
    const end = at + needle.length;
    const after = end === hay.length || /[-.]/.test(hay[end] as string);
    if (before && after) return true;
    at = hay.indexOf(needle, at + 1);
  }
  return false;
}

/** How well report hints name an attempt's solver: 3 same name, 2 same model without provider, 1 name inside a folder name. */
export function matchScore(a: Pick<PlannedAttempt, 'model' | 'run' | 'aliases'>, hints: Hint[]): number {
  let best = 0;
  const names = [a.model, a.run, ...a.aliases].filter((n) => n.length > 0);
  for (const h of hints) {
    const hs = slug(h.name);
    if (!hs) continue;
    for (const n of names) {
      if (normName(h.name) === normName(n) || hs === slug(n)) best = Math.max(best, 3);
      else if (hs === slug(lastSegment(n)) || slug(lastSegment(normName(h.name))) === slug(lastSegment(n))) best = Math.max(best, 2);
      else if (!h.exact && (containsToken(hs, slug(n)) || containsToken(hs, slug(lastSegment(n))))) best = Math.max(best, 1);
    }
  }
  return best;
}

export interface ReportAttachment {
  attached: Array<{ entry: ReportEntry; attempt: PlannedAttempt; note?: string }>;
  created: PlannedAttempt[];
  /** Verdicts on the gold patch of an imported instance. */
  gold: Array<{ instanceId: string; result: RecordedResult }>;
  unmatched: Unmatched[];
}

/** Score of a report found inside an attempt's own run folder: above any name match. */
const SAME_RUN_FOLDER = 4;

/**
 * How well a report names an attempt: by its names (matchScore), or by sitting in the attempt's run folder, unless
 * the report's own solver name (a harness model folder, a model inside it) names another attempt of the instance.
 */
function reportScore(a: PlannedAttempt, e: ReportEntry, all: PlannedAttempt[]): number {
  const byName = matchScore(a, e.hints);
  if (e.runRoot === undefined || a.runRoot !== e.runRoot) return byName;
  const exact = e.hints.filter((h) => h.exact && !h.run);
  if (exact.length > 0 && matchScore(a, exact) < 2 && all.some((b) => b !== a && matchScore(b, exact) >= 2)) return byName;
  return SAME_RUN_FOLDER;
}

/**
 * Gives each report to the attempt of its instance whose solver it names best (ties broken by an identical patch).
 * A report that names no attempt makes one from the patch beside it, else is listed as unmatched. Run-level reports
 * about instances that were not imported are summarized in one line per report.
 */
export function attachReports(attempts: PlannedAttempt[], entries: ReportEntry[], instances: Map<string, InstanceRow>): ReportAttachment {
  const out: ReportAttachment = { attached: [], created: [], gold: [], unmatched: [] };
  const byInstance = new Map<string, PlannedAttempt[]>();
  for (const a of attempts) byInstance.set(a.instanceId, [...(byInstance.get(a.instanceId) ?? []), a]);
  const elsewhere = new Map<string, string[]>();
  // Per-instance reports first: they may create the attempts that run-level reports then find.
  const ordered = [...entries.filter((e) => e.level === 'instance'), ...entries.filter((e) => e.level === 'run')];
  for (const e of ordered) {
    if (!instances.has(e.instanceId)) {
      if (e.level === 'run') elsewhere.set(e.file, [...(elsewhere.get(e.file) ?? []), e.instanceId]);
      else {
        out.unmatched.push({ kind: 'report', instanceId: e.instanceId, ...hintModel(e), file: e.file, reason: `no instance row with this id` });
      }
      continue;
    }
    if (e.gold) {
      const result = recorded(e);
      if (!out.gold.some((g) => g.instanceId === e.instanceId && g.result.source === result.source && g.result.file === result.file)) out.gold.push({ instanceId: e.instanceId, result });
      continue;
    }
    const list = byInstance.get(e.instanceId) ?? [];
    const scored = list.map((a) => ({ a, s: reportScore(a, e, list) })).filter((x) => x.s > 0);
    const top = Math.max(0, ...scored.map((x) => x.s));
    let best = scored.filter((x) => x.s === top).map((x) => x.a);
    if (best.length > 1 && e.patch) {
      const same = best.filter((a) => samePatch(a.patch, (e.patch as { text: string }).text));
      if (same.length >= 1) best = same;
    }
    if (best.length > 1) {
      // Two runs of the same model and nothing to tell them apart: attaching to both would misstate one of them.
      out.unmatched.push({
        kind: 'report',
        instanceId: e.instanceId,
        ...hintModel(e),
        file: e.file,
        reason: `ambiguous: it could belong to attempts of ${best.map((a) => `${a.run} (${a.runDir})`).join(' and ')}`,
      });
      continue;
    }
    // A report that names no solver at all (an unwrapped report.json in a folder named after the instance) belongs
    // to the only attempt there is; the note says so.
    let only: string | undefined;
    if (best.length === 0 && list.length === 1 && !e.hints.some((h) => h.exact && !h.run) && !(e.level === 'instance' && e.patch && !samePatch((list[0] as PlannedAttempt).patch, e.patch.text))) {
      best = [list[0] as PlannedAttempt];
      only = `the report names no solver; its verdict went to the only attempt of ${e.instanceId} (${(list[0] as PlannedAttempt).run})`;
    }
    const target = best[0];
    if (target) {
      if (!target.recorded.some((r) => r.source === e.verdict.source && r.file === e.file)) target.recorded.push(recorded(e));
      fillFrom(target, e);
      const note = e.patch && !samePatch(target.patch, e.patch.text) ? `the patch beside this report (${e.patch.from}) differs from the attempt's patch` : only;
      out.attached.push({ entry: e, attempt: target, ...(note ? { note } : {}) });
      continue;
    }
    if (e.level === 'instance' && e.patch) {
      const model = modelFromHints(e.hints) ?? 'unknown';
      const created: PlannedAttempt = {
        instanceId: e.instanceId,
        model,
        agent: e.agent ?? '',
        run: model,
        runDir: e.file,
        aliases: e.hints.map((h) => h.name),
        patch: e.patch.text,
        patchFrom: e.patch.from,
        hasPrediction: false,
        recorded: [recorded(e)],
      };
      fillFrom(created, e);
      out.created.push(created);
      byInstance.set(e.instanceId, [...list, created]);
      continue;
    }
    // Only a name the harness gave (not any folder name) says whose the report is.
    const who = e.hints.some((h) => h.exact && !h.run) ? (hintModel(e).model ?? 'its solver') : 'its solver';
    out.unmatched.push({
      kind: 'report',
      instanceId: e.instanceId,
      ...hintModel(e),
      file: e.file,
      reason:
        e.level === 'run'
          ? `says ${e.verdict.status ?? 'something'} for ${e.instanceId}, but no attempt by ${who} was imported for it`
          : `no attempt by ${who} for ${e.instanceId}, and no patch beside the report to make one`,
    });
  }
  for (const [file, ids] of elsewhere) {
    out.unmatched.push({
      kind: 'report',
      file,
      reason: `${ids.length} verdict(s) for instances without an instance row`,
      instanceIds: ids,
    });
  }
  return out;
}

function recorded(e: ReportEntry): RecordedResult {
  const { imported, source, ...rest } = e.verdict;
  return { imported, source, file: e.file, ...rest };
}

function fillFrom(a: PlannedAttempt, e: ReportEntry): void {
  if (a.costUsd === undefined && e.costUsd !== undefined) a.costUsd = e.costUsd;
  if (a.tokens === undefined && e.tokens !== undefined) a.tokens = e.tokens;
  if (!a.agent && e.agent) a.agent = e.agent;
  if (!a.trajectory && !a.trajectoryText && e.trajectoryText) a.trajectoryText = e.trajectoryText;
}

function hintModel(e: ReportEntry): { model?: string } {
  const m = modelFromHints(e.hints);
  return m ? { model: m } : {};
}

/** The solver's model as the harness names it (`openai__gpt-5-mini` is `openai/gpt-5-mini`). */
function modelFromHints(hints: Hint[]): string | undefined {
  const h = hints.find((x) => x.exact && !x.run) ?? hints.find((x) => !x.run);
  if (!h) return undefined;
  return h.name.includes('/') ? h.name : h.name.replace(/__/g, '/');
}

// ---- ids -------------------------------------------------------------------------------------------------------


/**
 * Attempt ids per instance: the slug of the run's name, `-2`, `-3`... on collision, assigned in a fixed order
 * (run name, run folder, patch source) so that importing the same inputs again gives the same ids.
 */
export function assignAttemptIds(attempts: PlannedAttempt[]): void {
  const byInstance = new Map<string, PlannedAttempt[]>();
  for (const a of attempts) byInstance.set(a.instanceId, [...(byInstance.get(a.instanceId) ?? []), a]);
  for (const list of byInstance.values()) {
    list.sort((x, y) => cmp(x.run, y.run) || cmp(x.runDir, y.runDir) || cmp(x.patchFrom, y.patchFrom));
    const used = new Set<string>();
    for (const a of list) {
      let base = slug(a.run).slice(0, 180) || 'attempt';
      if (!/^[a-z0-9]/.test(base)) base = `a-${base}`;
      if (isProbeId(base)) base = `${base}-prediction`;
      let id = base;
      for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
      used.add(id);
      a.id = id;
    }
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
