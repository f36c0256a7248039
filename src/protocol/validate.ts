// Validation of every message that arrives on the host from a webview: the webview renders hostile text, so the
// host trusts nothing it sends.
import type { RequestMethod, StepKindView, WebviewState, WebviewToHost } from './messages';

export type Validated = { ok: true; message: WebviewToHost } | { ok: false; error: string };

const STEP_KINDS: readonly StepKindView[] = ['system', 'user', 'thought', 'action', 'observation', 'tool_call', 'tool_result'];
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
  compareColumns: (p) => (isStr(p.left, 256) && isStr(p.right, 256) && isStr(p.path) ? undefined : 'compareColumns needs left, right and path'),
  openTest: (p) => (isStr(p.testId, 256) ? undefined : 'openTest needs testId'),
  openPatch: (p) => (isStr(p.column, 256) ? undefined : 'openPatch needs column'),
  openRunLog: (p) => (isStr(p.column, 256) && opt(p.testId, (v): v is string => isStr(v, 256)) ? undefined : 'openRunLog needs column, testId?'),
  runCommand: (p) =>
    isStr(p.command, 200) && /^specweave\./.test(p.command) && Array.isArray(p.args) && p.args.length <= 8 && p.args.every((a) => isStr(a, 1024))
      ? undefined
      : 'runCommand needs a specweave.* command and at most 8 string args',
};

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
