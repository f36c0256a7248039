// `specweave specs add|edit|rm|split|merge|reorder|map|undo|list`: spec authoring from a terminal. Each change is a
// new task revision written by src/app/specAuthoring.ts (the same all-or-nothing write as a repair accept) and
// recorded in the review log; each prints the new revision (or JSON). See docs/cli.md.
import { ReviewLogError } from '../adapters/fs/reviewLog';
import { readRevision } from '../adapters/fs/taskRevision';
import type { CurationStore } from '../app/curationStore';
import type { SpecEditResult } from '../app/specAuthoring';
import { SpecAuthoringError, applySpecEdit, undoSpecEdit } from '../app/specAuthoring';
import { parseRecordJson } from '../core/json';
import { taskState } from '../core/review/reducer';
import { SPEC_CATEGORIES } from '../core/specs/categories';
import type { SpecOp } from '../core/specs/edit';
import type { FlagSpec, ParsedArgs } from './args';
import { UsageError } from './args';
import type { CliCommand } from './command';
import { defineCommand } from './command';
import { curatorFlag, curatorOf, jsonFlag, openStore } from './curationCommon';
import { err, one, out, printJson, table } from './output';
import { specsDraftCommand } from './specsDraft';

const writeFlags: Record<string, FlagSpec> = {
  'expect-revision': { type: 'string', help: 'refuse unless the task is at this revision (what you looked at)' },
  note: { type: 'string', help: 'why, kept in the review log' },
  ...curatorFlag,
  ...jsonFlag,
};
const categoryFlags: Record<string, FlagSpec> = {
  category: { type: 'string', help: `one of ${SPEC_CATEGORIES.join(', ')}` },
  'allow-category': { type: 'boolean', help: 'accept a new kebab-case category outside the taxonomy' },
};

/**
 * Comma-separated references, a comma inside [...] or (...) kept (a parametrized pytest id such as
 * `test_x[1,2]` is one test). Repeated flags add up.
 */
export function splitRefs(values: readonly string[]): string[] {
  const outList: string[] = [];
  for (const v of values) {
    let depth = 0;
    let cur = '';
    for (const c of v) {
      if (c === '[' || c === '(') depth++;
      if ((c === ']' || c === ')') && depth > 0) depth--;
      if (c === ',' && depth === 0) {
        if (cur.trim()) outList.push(cur.trim());
        cur = '';
      } else cur += c;
    }
    if (cur.trim()) outList.push(cur.trim());
  }
  return outList;
}

function expected(a: ParsedArgs): number | undefined {
  const v = a.strings['expect-revision'];
  if (v === undefined) return undefined;
  if (!/^[1-9]\d{0,6}$/.test(v)) throw new UsageError(`--expect-revision must be a revision number from 1; got "${v}"`);
  return Number(v);
}

function summary(r: SpecEditResult): string {
  const parts: string[] = [];
  if (r.created.length > 0) parts.push(`added ${r.created.join(', ')}`);
  if (r.deleted.length > 0) parts.push(`deleted ${r.deleted.join(', ')}`);
  parts.push(r.changedSpecs.length > 0 ? `changed specs: ${r.changedSpecs.join(', ')} (their earlier labels are stale)` : 'no spec changed (order only)');
  return `${r.task}: revision ${r.from} -> ${r.to} (${parts.join('; ')})`;
}

/** Runs one write and prints its outcome: the new revision, or the refusal with its reasons. */
async function write(a: ParsedArgs, command: string, run: (common: { root: string; taskId: string; curator: string; store: CurationStore; expectedRevision?: number; note?: string }) => Promise<SpecEditResult>): Promise<number> {
  const [root, taskId] = a.positional as [string, string];
  const json = a.booleans.json === true;
  const exp = expected(a);
  const curator = curatorOf(a, root);
  const store = openStore(a, { quiet: json });
  try {
    const r = await run({ root, taskId, curator, store, ...(exp !== undefined ? { expectedRevision: exp } : {}), ...(a.strings.note !== undefined ? { note: a.strings.note } : {}) });
    if (json) {
      printJson({ ok: true, task: r.task, from: r.from, to: r.to, revision: r.to, changedSpecs: r.changedSpecs, created: r.created, deleted: r.deleted, warnings: r.warnings, events: r.events.map((e) => e.id) });
    } else {
      out(`${one(summary(r))}\n`);
      for (const w of r.warnings) err(`specweave ${command}: warning: ${one(w)}\n`);
    }
    return 0;
  } catch (e) {
    if (!(e instanceof SpecAuthoringError) && !(e instanceof ReviewLogError)) throw e;
    const code = e.code;
    const details = e instanceof SpecAuthoringError ? e.details : [];
    const head = e instanceof SpecAuthoringError && details.length > 0 ? e.message.split('\n')[0] : e.message;
    if (json) printJson({ ok: false, error: { code, message: head, details, ...(e instanceof SpecAuthoringError && e.currentRevision !== undefined ? { revision: e.currentRevision } : {}) } });
    err(`specweave ${command}: ${one(head)}\n`);
    for (const d of details) err(`  - ${one(d.message)}\n`);
    return 1;
  }
}

function opCommand(def: { name: string; summary: string; usage: string; flags: Record<string, FlagSpec>; positional: { min: number; max: number }; op: (a: ParsedArgs) => SpecOp }): CliCommand {
  return defineCommand({
    name: `specs ${def.name}`,
    summary: def.summary,
    usage: def.usage,
    flags: { ...def.flags, ...writeFlags },
    positional: def.positional,
    run: (a) => {
      const op = def.op(a);
      return write(a, `specs ${def.name}`, (c) => applySpecEdit({ ...c, op, ...(a.booleans['allow-category'] ? { allowCategory: true } : {}) }));
    },
  });
}

function depends(a: ParsedArgs): string[] | undefined {
  const d = a.lists.depends ?? [];
  return d.length === 0 ? undefined : splitRefs(d);
}

const addCmd = opCommand({
  name: 'add',
  summary: 'add a spec to a task (a new revision)',
  usage: 'specweave specs add DATASET TASK --text T --category C [--tests TEST,...] [--depends SPEC,...]',
  flags: {
    text: { type: 'string', help: 'the requirement, one sentence or a few' },
    ...categoryFlags,
    tests: { type: 'list', help: "tests checking it: a test's id or its full name, comma-separated" },
    depends: { type: 'list', help: 'specs it depends on, comma-separated' },
  },
  positional: { min: 2, max: 2 },
  op: (a) => {
    const text = a.strings.text;
    const category = a.strings.category;
    if (text === undefined || category === undefined) throw new UsageError('--text and --category are required');
    const deps = depends(a);
    const tests = splitRefs(a.lists.tests ?? []);
    return { op: 'add', text, category, ...(deps ? { dependsOn: deps } : {}), ...(tests.length > 0 ? { tests } : {}) };
  },
});

const editCmd = opCommand({
  name: 'edit',
  summary: "change a spec's text, category or dependsOn (a new revision; labels on it become stale)",
  usage: 'specweave specs edit DATASET TASK SPEC [--text T] [--category C] [--depends SPEC,... | --no-depends]',
  flags: {
    text: { type: 'string', help: 'the new text' },
    ...categoryFlags,
    depends: { type: 'list', help: 'the specs it depends on now, comma-separated' },
    'no-depends': { type: 'boolean', help: 'it depends on no spec' },
  },
  positional: { min: 3, max: 3 },
  op: (a) => {
    const spec = a.positional[2] as string;
    const deps = a.booleans['no-depends'] ? [] : depends(a);
    if (a.booleans['no-depends'] && (a.lists.depends ?? []).length > 0) throw new UsageError('--depends and --no-depends together');
    if (a.strings.text === undefined && a.strings.category === undefined && deps === undefined) throw new UsageError('give --text, --category, --depends or --no-depends');
    return { op: 'edit', spec, ...(a.strings.text !== undefined ? { text: a.strings.text } : {}), ...(a.strings.category !== undefined ? { category: a.strings.category } : {}), ...(deps ? { dependsOn: deps } : {}) };
  },
});

const rmCmd = opCommand({
  name: 'rm',
  summary: 'delete a spec (a new revision; its labels stay readable in the history)',
  usage: 'specweave specs rm DATASET TASK SPEC',
  flags: {},
  positional: { min: 3, max: 3 },
  op: (a) => ({ op: 'delete', spec: a.positional[2] as string }),
});

const splitCmd = opCommand({
  name: 'split',
  summary: 'split a spec into two or more (the first part keeps its id and labels)',
  usage: 'specweave specs split DATASET TASK SPEC --text T1 --text T2 [--text T3 ...]',
  flags: { text: { type: 'list', help: 'the text of each part, in order' }, ...categoryFlags },
  positional: { min: 3, max: 3 },
  op: (a) => ({ op: 'split', spec: a.positional[2] as string, parts: (a.lists.text ?? []).map((text, i) => ({ text, ...(i > 0 && a.strings.category !== undefined ? { category: a.strings.category } : {}) })) }),
});

const mergeCmd = opCommand({
  name: 'merge',
  summary: 'merge specs into the first one named (the others are deleted; their tests and dependants move to it)',
  usage: 'specweave specs merge DATASET TASK SPEC SPEC [SPEC ...] --text T [--category C]',
  flags: { text: { type: 'string', help: 'the merged text' }, ...categoryFlags },
  positional: { min: 4, max: 1000 },
  op: (a) => {
    if (a.strings.text === undefined) throw new UsageError('--text is required');
    return { op: 'merge', specs: a.positional.slice(2), text: a.strings.text, ...(a.strings.category !== undefined ? { category: a.strings.category } : {}) };
  },
});

const reorderCmd = opCommand({
  name: 'reorder',
  summary: "put a task's specs in a new order (every spec id once)",
  usage: 'specweave specs reorder DATASET TASK SPEC [SPEC ...]',
  flags: {},
  positional: { min: 3, max: 100_000 },
  op: (a) => ({ op: 'reorder', order: a.positional.slice(2) }),
});

const mapCmd = opCommand({
  name: 'map',
  summary: 'set the tests that check a spec (or add / remove some)',
  usage: 'specweave specs map DATASET TASK SPEC --tests TEST,... [--add | --remove]',
  flags: {
    tests: { type: 'list', help: "a test's id or its full name, comma-separated" },
    add: { type: 'boolean', help: 'add these tests to the ones it has' },
    remove: { type: 'boolean', help: 'remove these tests from it' },
  },
  positional: { min: 3, max: 3 },
  op: (a) => {
    if (a.booleans.add && a.booleans.remove) throw new UsageError('--add and --remove together');
    const tests = splitRefs(a.lists.tests ?? []);
    if ((a.lists.tests ?? []).length === 0) throw new UsageError('--tests is required (--tests "" maps no test)');
    return { op: 'map', spec: a.positional[2] as string, mode: a.booleans.add ? 'add' : a.booleans.remove ? 'remove' : 'replace', tests };
  },
});

const undoCmd = defineCommand({
  name: 'specs undo',
  summary: 'take back the last spec edit of a task, as a new revision (history is kept)',
  usage: 'specweave specs undo DATASET TASK',
  flags: writeFlags,
  positional: { min: 2, max: 2 },
  run: (a) => write(a, 'specs undo', (c) => undoSpecEdit(c)),
});

const listCmd = defineCommand({
  name: 'specs list',
  summary: "a task's specs with their tests, and the specs deleted from it with their labels",
  usage: 'specweave specs list DATASET TASK [--json]',
  flags: jsonFlag,
  positional: { min: 2, max: 2 },
  async run(a) {
    const [root, taskId] = a.positional as [string, string];
    const store = openStore(a, { quiet: a.booleans.json === true });
    const task = store.task(taskId);
    if (!task) {
      if (a.booleans.json) printJson({ ok: false, error: { code: 'unknown_task', message: `the dataset has no task "${taskId}"` } });
      err(`specweave specs list: the dataset has no task "${one(taskId)}"\n`);
      return 1;
    }
    const st = taskState(store.state, taskId);
    const testsOf = (sid: string) => task.tests.filter((t) => t.specs.includes(sid)).map((t) => t.id);
    const labels = [...st.labels.values()].flatMap((m) => [...m.values()]);
    // A deleted spec: its text from the archived revision before the one that deleted it.
    const deleted = [...st.deletedSpecs].map(([id, revision]) => {
      const archived = readRevision(root, taskId, revision - 1);
      const parsed = archived ? parseRecordJson(archived.taskJson) : undefined;
      const specs = parsed?.ok ? ((parsed.value as { specs?: Array<{ id?: unknown; text?: unknown }> }).specs ?? []) : [];
      const text = specs.find((s) => s.id === id)?.text;
      const mine = labels.filter((l) => l.spec === id).map((l) => ({ curator: l.curator, attempt: l.attempt, verdict: l.verdict, revision: l.revision, event: l.event }));
      return { id, deletedIn: revision, ...(typeof text === 'string' ? { text } : {}), labels: mine };
    });
    if (a.booleans.json) {
      printJson({ ok: true, task: taskId, revision: task.revision, specs: task.specs.map((s) => ({ ...s, tests: testsOf(s.id), staleLabels: labels.filter((l) => l.spec === s.id && l.stale).length })), deleted });
      return 0;
    }
    out(`${one(taskId)} at revision ${task.revision}: ${task.specs.length} spec(s)\n`);
    out(table(['SPEC', 'CATEGORY', 'TESTS', 'DEPENDS', 'LABELS', 'TEXT'], task.specs.map((s) => {
      const mine = labels.filter((l) => l.spec === s.id);
      const stale = mine.filter((l) => l.stale).length;
      return [s.id, s.category, testsOf(s.id).join(',') || '(none)', s.dependsOn.join(','), `${mine.length}${stale > 0 ? ` (${stale} stale)` : ''}`, s.text];
    })));
    if (deleted.length > 0) {
      out(`\nDELETED SPECS (their labels stay in the history)\n`);
      out(table(['SPEC', 'DELETED IN', 'LABELS', 'TEXT'], deleted.map((d) => [d.id, `revision ${d.deletedIn}`, d.labels.map((l) => `${l.curator}: ${l.attempt} ${l.verdict}`).join('; ') || '(none)', d.text ?? '(not readable)'])));
    }
    return 0;
  },
});

const SUBCOMMANDS: Record<string, CliCommand> = { draft: specsDraftCommand, add: addCmd, edit: editCmd, rm: rmCmd, split: splitCmd, merge: mergeCmd, reorder: reorderCmd, map: mapCmd, undo: undoCmd, list: listCmd };

export const specsCommand: CliCommand = {
  name: 'specs',
  summary: 'specs of a task: draft (with the model), add, edit, rm, split, merge, reorder, map, undo, list (each change a new revision)',
  async run(args) {
    const sub = args[0] !== undefined ? SUBCOMMANDS[args[0]] : undefined;
    if (sub) return sub.run(args.slice(1));
    const usage = `usage: specweave specs ${Object.keys(SUBCOMMANDS).join('|')} DATASET TASK ... (specweave specs SUBCOMMAND --help)\n`;
    if (args[0] === '--help' || args[0] === undefined) {
      (args[0] === undefined ? err : out)(usage);
      return args[0] === undefined ? 2 : 0;
    }
    err(`specweave specs: unknown subcommand "${one(args[0])}"\n${usage}`);
    return 2;
  },
};
