// Task view models and generated trajectories for the standalone webview harness. Steps are computed from their
// index, so a 10,000-step trajectory costs nothing until a page of it is asked for. Bundled into the harness page
// (by the server) together with fakeHost.ts; pure, no DOM.
import type { ColumnView, MdBlock, StepKindView, TaskStatusView, TaskViewModel } from '../../../src/protocol/messages';

export interface FullStep {
  kind: StepKindView;
  text: string;
  toolCalls?: Array<{ name: string; arguments: string }>;
  costUsd?: number;
  timestamp?: string;
  edits?: string[];
}

export interface Fixture {
  model: TaskViewModel;
  /** Trajectory steps per column id. */
  trajectories: Record<string, { count: number; step(i: number): FullStep }>;
}

const CYCLE: StepKindView[] = ['thought', 'action', 'observation'];

function kindAt(i: number): StepKindView {
  if (i === 0) return 'system';
  if (i === 1) return 'user';
  return CYCLE[(i - 2) % 3]!;
}

/** Step `i` of the long, ordinary trajectory: every 97th observation is a traceback. */
function ordinaryStep(column: string, i: number, edited: string[]): FullStep {
  const kind = kindAt(i);
  const mod = `src/pkg/module_${i % 17}.py`;
  switch (kind) {
    case 'system':
      return { kind, text: 'You are a helpful software engineer. Fix the issue in the repository.' };
    case 'user':
      return { kind, text: 'The parser drops trailing commas in nested lists. Please fix it.' };
    case 'thought':
      return { kind, text: `Step ${i} of ${column}: I should read ${mod} next and check how commas are handled.`, costUsd: 0.0011 };
    case 'action': {
      const edit = i % 40 === 3 ? edited[(i / 40) % edited.length | 0] : undefined;
      return {
        kind,
        text: edit ? `edit ${edit}` : `cat ${mod}`,
        toolCalls: [{ name: edit ? 'str_replace_editor' : 'bash', arguments: JSON.stringify(edit ? { path: edit, old: 'a,', new: 'a' } : { command: `cat ${mod}` }) }],
        ...(edit ? { edits: [edit] } : {}),
        costUsd: 0.0023,
      };
    }
    default: {
      if (i % 97 === 0) {
        return { kind, text: `Traceback (most recent call last):\n  File "${mod}", line ${i % 300}, in parse\n    raise ValueError("bad comma ${i}")\nValueError: bad comma ${i}` };
      }
      const lines = Array.from({ length: 1 + (i % 5) }, (_, k) => `${k + 1}\tdef f_${i}_${k}(x):  # ordinary output`);
      return { kind, text: lines.join('\n') };
    }
  }
}

const LONG_STEP = 7;
const LONG_TEXT = Array.from({ length: 6000 }, (_, k) => `line ${k}: ${'lorem ipsum '.repeat(8)}${k === 5000 ? 'DEEPNEEDLE' : ''}`).join('\n');

/** A step of a2 whose one long tool call holds a word found nowhere else, near the end of its arguments. */
const CALL_STEP = 9;
function callStep(): FullStep {
  const body = Array.from({ length: 60 }, (_, k) => `def rule_${k}(tokens):\n    return tokens[${k}:]${k === 55 ? '  # CALLNEEDLE' : ''}\n`).join('');
  return { kind: 'action', text: 'I will rewrite the parser in one go.', toolCalls: [{ name: 'str_replace_editor', arguments: JSON.stringify({ command: 'create', path: 'src/pkg/parser.py', file_text: body }) }] };
}

function request(): MdBlock[] {
  return [
    { kind: 'heading', level: 1, runs: [{ text: 'Trailing commas in nested lists are dropped' }] },
    {
      kind: 'paragraph',
      runs: [
        { text: 'When ' },
        { text: 'parse()', code: true },
        { text: ' reads a nested list, ' },
        { text: 'it must keep a trailing comma inside the inner list', specs: ['S1'] },
        { text: ' and ' },
        { text: 'report an error with the line number for an unclosed bracket', specs: ['S2'], strong: true },
        { text: '. See ' },
        { text: 'the grammar', href: 'https://example.invalid/grammar' },
        { text: '.' },
      ],
    },
    { kind: 'code', lang: 'python', text: 'parse("[1, [2, 3,], 4]")  # -> [1, [2, 3], 4]' },
    {
      kind: 'list',
      ordered: false,
      items: [
        [{ kind: 'paragraph', runs: [{ text: 'Empty lists stay empty', specs: ['S3'] }] }],
        [{ kind: 'paragraph', runs: [{ text: 'Whitespace around commas is ignored', em: true, specs: ['S4'] }] }],
      ],
    },
    { kind: 'quote', blocks: [{ kind: 'paragraph', runs: [{ text: 'Reported by a user on the mailing list.' }] }] },
    { kind: 'rule' },
    { kind: 'table', header: [[{ text: 'input' }], [{ text: 'output' }]], rows: [[[{ text: '[1,]', code: true }], [{ text: '[1]', code: true }]]] },
  ];
}

const goldFiles: ColumnView['files'] = [
  { path: 'src/pkg/parser.py', status: 'modified', additions: 12, deletions: 3, hunks: ['@@ -10,6 +10,12 @@ def parse(text):', '@@ -40,3 +46,6 @@ def _items(tokens):'] },
  { path: 'src/pkg/errors.py', status: 'modified', additions: 4, deletions: 0, hunks: ['@@ -1,2 +1,6 @@'] },
];

/** The ordinary task: gold, a 10,000-step attempt, a 400-step attempt with a long step, and a broken attempt. */
export function standardFixture(): Fixture {
  const edited = ['src/pkg/parser.py', 'src/pkg/lexer.py'];
  const count = (n: number) => {
    const byKind: Record<string, number> = {};
    for (let i = 0; i < n; i++) byKind[kindAt(i)] = (byKind[kindAt(i)] ?? 0) + 1;
    return byKind;
  };
  const model: TaskViewModel = {
    protocol: 1,
    taskId: 'demo__parser-1234',
    title: 'Keep trailing commas in nested lists',
    revision: 3,
    status: 'in_review',
    repo: 'demo/parser',
    baseCommit: '0123456789abcdef0123',
    image: 'specweave/demo-parser:1',
    trusted: true,
    request: request(),
    specs: [
      { id: 'S1', text: 'A trailing comma inside a nested list is kept as a separator, not an element.', category: 'parsing-representation', dependsOn: [], tests: ['T1', 'T2'], uncovered: false, stated: true },
      { id: 'S2', text: 'An unclosed bracket raises ParseError naming the line.', category: 'error-handling', dependsOn: ['S1'], tests: ['T3'], uncovered: false, stated: true },
      { id: 'S3', text: 'An empty list parses to an empty list.', category: 'parsing-representation', dependsOn: [], tests: [], uncovered: true, stated: true },
      { id: 'S4', text: 'Whitespace around commas is ignored.', category: 'parsing-representation', dependsOn: [], tests: ['T2'], uncovered: false, stated: true },
      { id: 'S5', text: 'Parsing is linear in the input length.', category: 'computation-algorithms', dependsOn: [], tests: [], uncovered: true, stated: false },
    ],
    tests: [
      { id: 'T1', name: 'tests/test_parser.py::TestNested::test_trailing_comma', kind: 'fail_to_pass', specs: ['S1'], unmapped: false, source: { file: 'tests/test_parser.py', patchLine: 12, text: 'def test_trailing_comma():\n    assert parse("[1, [2,],]") == [1, [2]]\n' } },
      { id: 'T2', name: 'tests/test_parser.py::TestNested::test_spaces', kind: 'fail_to_pass', specs: ['S1', 'S4'], unmapped: false, source: { file: 'tests/test_parser.py', patchLine: 20, text: 'def test_spaces():\n    assert parse("[ 1 , 2 ]") == [1, 2]\n' } },
      { id: 'T3', name: 'tests/test_errors.py::test_unclosed', kind: 'fail_to_pass', specs: ['S2'], unmapped: false },
      { id: 'T4', name: 'tests/test_parser.py::test_flat_list', kind: 'pass_to_pass', specs: [], unmapped: true, source: { file: 'tests/test_parser.py', patchLine: 30, text: 'def test_flat_list():\n    assert parse("[1, 2]") == [1, 2]\n' } },
    ],
    columns: [
      { id: 'gold', label: 'Gold patch', files: goldFiles, hasTrajectory: false, verdict: 'resolved (imported)' },
      {
        id: 'a1',
        label: 'Attempt 1',
        model: 'model-large',
        agent: 'swe-agent',
        costUsd: 1.87,
        claimed: 'resolved',
        files: [...goldFiles, { path: 'src/pkg/lexer.py', status: 'modified', additions: 30, deletions: 12 }, { path: 'tests/test_new.py', status: 'added', additions: 40, deletions: 0 }],
        hasTrajectory: true,
        trajectory: { format: 'swe-agent', steps: 10_000, byKind: count(10_000), costUsd: 1.87, exitStatus: 'submitted' },
        verdict: 'resolved (imported)',
      },
      {
        id: 'a2',
        label: 'Attempt 2',
        model: 'model-small',
        agent: 'mini-swe-agent',
        costUsd: 0.12,
        files: [{ path: 'src/pkg/parser.py', status: 'modified', additions: 2, deletions: 2 }],
        hasTrajectory: true,
        trajectory: { format: 'mini-swe-agent', steps: 400, byKind: count(400), costUsd: 0.12, exitStatus: 'exit_cost' },
        verdict: 'unresolved (imported)',
      },
      { id: 'a3', label: 'Attempt 3', files: [], patchError: 'patch is not a unified diff (line 1)', hasTrajectory: false, trajectoryError: 'trajectory.json: unexpected end of JSON at line 88' },
    ],
    results: {
      columns: ['gold', 'a1', 'a2'],
      tests: { T1: { gold: 'PASSED', a1: 'PASSED', a2: 'FAILED' }, T2: { gold: 'PASSED', a1: 'PASSED', a2: 'FAILED' }, T3: { gold: 'PASSED', a1: 'FAILED', a2: 'missing' } },
      specs: { S1: { gold: 'pass', a1: 'pass', a2: 'fail' }, S2: { gold: 'pass', a1: 'fail', a2: 'unknown' } },
      runs: { gold: { runId: 'r1', status: 'passed', stale: false, resolved: true }, a1: { runId: 'r2', status: 'failed', stale: true, resolved: false } },
      flags: [{ kind: 'attempt_suspect_false_positive', message: 'Attempt 1 claims resolved but T3 fails', testId: 'T3' }],
    },
    notices: ['The repository clone is missing: diffs against the base file are disabled; patches still open.'],
    position: { index: 2, total: 15 },
  };
  return {
    model,
    trajectories: {
      a1: { count: 10_000, step: (i) => ordinaryStep('a1', i, edited) },
      a2: {
        count: 400,
        step: (i) => (i === LONG_STEP ? { kind: 'observation', text: LONG_TEXT } : i === CALL_STEP ? callStep() : ordinaryStep('a2', i, ['src/pkg/parser.py'])),
      },
    },
  };
}

/** Text that would do something if it were ever treated as markup, URL or terminal control. */
export const PWN = 'window.__pwned=1';
export const HOSTILE_HTML = [
  `<script>${PWN}</script>`,
  `<img src=x onerror="${PWN}">`,
  `<svg onload="${PWN}"><circle r=1 /></svg>`,
  `<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>`,
  `<a href="javascript:${PWN}">click</a>`,
  `"><style>*{display:none}</style><div style="position:fixed">`,
  `<!-- comment --><![CDATA[x]]>&lt;&amp;&#x3c;script&#x3e;`,
].join(' ');
const ANSI_TEXT = '\u001b[31mRED\u001b[0m \u001b[1;32mbold green\u001b[m \u001b]0;title\u0007after-osc \u001b[2J\u001b[Hcleared?';
const BINARY = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('') + '\ud800\udfff\ud800 lone surrogates \ufeff\u202eevil-rtl';

let huge: string | undefined;
/** About 10 MB of markup-looking text with a marker near the end. */
function hugeText(): string {
  huge ??= `${`${HOSTILE_HTML} ${'A'.repeat(900)}\n`.repeat(9_000)}HUGE-END-MARKER`;
  return huge;
}

export function hostileFixture(): Fixture {
  const hostileSteps: FullStep[] = [
    { kind: 'thought', text: `Looks like HTML: ${HOSTILE_HTML}` },
    { kind: 'observation', text: ANSI_TEXT },
    { kind: 'observation', text: BINARY },
    { kind: 'observation', text: `${'x'.repeat(100_000)} END-OF-LONG-LINE` },
    { kind: 'observation', text: '' },
    {
      kind: 'action',
      text: `[click](javascript:${PWN}) ![img](x" onerror="${PWN}) data:text/html,<script>${PWN}</script>`,
      toolCalls: [{ name: `<img src=x onerror=${PWN}>`, arguments: `{"cmd": "<script>${PWN}</script>"}` }],
      edits: [`<img src=x onerror=${PWN}>.py`],
    },
  ];
  const model: TaskViewModel = {
    protocol: 1,
    taskId: 'hostile__task-1',
    title: `<img src=x onerror="${PWN}">Hostile task`,
    revision: 1,
    // Outside the union on purpose: the page must show even a value the types rule out as inert text.
    status: '<script>status</script>' as TaskStatusView,
    repo: `<script>${PWN}</script>/repo`,
    image: 'img\u001b[31m',
    trusted: false,
    untrustedReason: `<b>untrusted</b> <script>${PWN}</script>`,
    request: [
      { kind: 'heading', level: 99, runs: [{ text: `\u001b[31m<h1>${HOSTILE_HTML}</h1>` }] },
      {
        kind: 'paragraph',
        runs: [
          { text: `<script>${PWN}</script>`, specs: [`"><svg onload=${PWN}>`] },
          { text: 'click me', href: `javascript:${PWN}` },
          { text: ' and ' },
          { text: 'data link', href: `data:text/html,<script>${PWN}</script>` },
          { text: BINARY, code: true },
        ],
      },
      { kind: 'code', lang: `"><script>${PWN}</script>`, text: HOSTILE_HTML },
      { kind: 'table', header: [[{ text: '<th onclick=x>' }]], rows: [[[{ text: `<td><img src=x onerror=${PWN}></td>` }]]] },
    ],
    specs: [{ id: `"><svg onload=${PWN}>`, text: HOSTILE_HTML, category: `<script>${PWN}</script>`, dependsOn: ['<x>'], tests: ['<t1>'], uncovered: false, stated: true }],
    tests: [{ id: '<t1>', name: `<img src=x onerror=${PWN}>::test`, kind: 'fail_to_pass', specs: [`"><svg onload=${PWN}>`], unmapped: false, source: { file: '<f>.py', patchLine: 1, text: `</pre><script>${PWN}</script>` } }],
    columns: [
      { id: 'gold', label: `<b onmouseover="${PWN}">gold</b>`, files: [{ path: `<img src=x onerror=${PWN}>.py`, status: 'modified', additions: 1, deletions: 1 }], hasTrajectory: false, patchError: `\u001b[31m<script>${PWN}</script>` },
      {
        id: 'h1',
        label: `<script>${PWN}</script>`,
        model: `<img src=x onerror=${PWN}>`,
        files: [{ path: `javascript:${PWN}`, status: 'added', additions: 3, deletions: 0 }],
        hasTrajectory: true,
        trajectory: { format: '<svg/onload=alert(1)>', steps: 40, byKind: { thought: 10, observation: 20, action: 10 }, exitStatus: `<script>${PWN}</script>` },
      },
    ],
    notices: [`<script>${PWN}</script> notice`, `\u001b[31m<img src=x onerror=${PWN}>`],
  };
  return {
    model,
    trajectories: {
      h1: {
        count: 40,
        step: (i) => {
          if (i === 4) return { kind: 'observation', text: hugeText() };
          return hostileSteps[i] ?? { kind: CYCLE[i % 3]!, text: `ordinary step ${i} ${i % 5 === 0 ? HOSTILE_HTML : ''}` };
        },
      },
    },
  };
}

/**
 * `attempts` attempts of `steps` steps of about `chars` characters each, and optionally a big task around them
 * (`files` changed files per attempt, `specs` specs, `tests` tests): the benchmark's and the DOM budget's task.
 */
export function scaleFixture(attempts: number, steps: number, chars: number, size: { files?: number; specs?: number; tests?: number } = {}): Fixture {
  const base = standardFixture();
  const filler = 'x'.repeat(Math.max(0, chars - 60));
  const byKind: Record<string, number> = {};
  for (let i = 0; i < steps; i++) byKind[kindAt(i)] = (byKind[kindAt(i)] ?? 0) + 1;
  const files: ColumnView['files'] = size.files
    ? Array.from({ length: size.files }, (_, i) => ({ path: `src/pkg/sub${i % 7}/file_${i}.py`, status: 'modified', additions: i % 13, deletions: i % 5 }))
    : base.model.columns[1]!.files;
  const columns: ColumnView[] = [{ ...base.model.columns[0]!, files }];
  const trajectories: Fixture['trajectories'] = {};
  for (let a = 1; a <= attempts; a++) {
    const id = `a${a}`;
    columns.push({ id, label: `Attempt ${a}`, files, hasTrajectory: true, trajectory: { format: 'swe-agent', steps, byKind } });
    trajectories[id] = { count: steps, step: (i) => ({ kind: kindAt(i), text: `step ${i} of ${id}: ${i % 97 === 0 ? 'Traceback ' : ''}${filler}` }) };
  }
  const model: TaskViewModel = { ...base.model, taskId: `scale-${attempts}x${steps}`, columns };
  if (size.specs || size.tests) {
    const nSpecs = size.specs ?? 5;
    const nTests = size.tests ?? 4;
    const testOf = (s: number) => [`T${s % nTests}`, `T${(s * 7) % nTests}`];
    model.specs = Array.from({ length: nSpecs }, (_, s) => ({
      id: `S${s}`, text: `Spec ${s}: ${'the parser keeps what it must keep. '.repeat(3)}`, category: `category-${s % 6}`, dependsOn: [], tests: s % 9 === 0 ? [] : testOf(s), uncovered: s % 9 === 0, stated: true,
    }));
    model.tests = Array.from({ length: nTests }, (_, t) => {
      const specs = model.specs.filter((sp) => sp.tests.includes(`T${t}`)).map((sp) => sp.id);
      return { id: `T${t}`, name: `tests/test_mod_${t % 11}.py::TestCase${t % 5}::test_case_${t}`, kind: t < 10 ? 'fail_to_pass' : 'pass_to_pass', specs, unmapped: specs.length === 0, source: { file: `tests/test_mod_${t % 11}.py`, patchLine: t * 5, text: `def test_case_${t}():\n    assert parse("[${t},]") == [${t}]\n` } };
    });
    const cols = columns.map((c) => c.id);
    model.results = {
      columns: cols,
      tests: Object.fromEntries(model.tests.map((t) => [t.id, Object.fromEntries(cols.map((c, i) => [c, (i + t.id.length) % 3 ? 'PASSED' : 'FAILED']))])),
      specs: Object.fromEntries(model.specs.map((sp) => [sp.id, Object.fromEntries(cols.map((c) => [c, 'pass']))])),
      runs: {},
      flags: [],
    };
  }
  return { model, trajectories };
}

/**
 * The ordinary task with `attempts` attempts (4 to 16 in the layout tests), each with a model, a cost, a verdict and a
 * few files, and short trajectories: the attempts region's many-cards case.
 */
export function manyAttemptsFixture(attempts: number): Fixture {
  const base = standardFixture();
  const verdicts = ['resolved (imported)', 'unresolved (imported)', 'resolved (verifier)', undefined];
  const columns: ColumnView[] = [base.model.columns[0]!];
  const trajectories: Fixture['trajectories'] = {};
  for (let a = 1; a <= attempts; a++) {
    const id = `a${a}`;
    const verdict = verdicts[a % verdicts.length];
    columns.push({
      id,
      label: `Attempt ${a}`,
      model: a % 2 ? 'model-large' : 'model-small',
      agent: 'swe-agent',
      costUsd: a / 10,
      files: goldFiles.slice(0, 1 + (a % 2)).map((f) => ({ ...f, additions: f.additions + a, deletions: f.deletions + (a % 3) })),
      hasTrajectory: true,
      trajectory: { format: 'swe-agent', steps: 30, byKind: { system: 1, user: 1, thought: 10, action: 9, observation: 9 } },
      ...(verdict ? { verdict } : {}),
    });
    trajectories[id] = { count: 30, step: (i) => ({ kind: kindAt(i), text: `step ${i} of ${id}` }) };
  }
  const { results: _results, ...model } = base.model;
  return { model: { ...model, taskId: `many-${attempts}`, columns }, trajectories };
}

export function fixtureByName(name: string, params: URLSearchParams = new URLSearchParams()): Fixture {
  if (name === 'hostile') return hostileFixture();
  if (name === 'many') return manyAttemptsFixture(Math.max(1, Math.min(64, Number(params.get('attempts')) || 16)));
  if (name === 'scale') {
    const n = (k: string, d: number) => Math.max(1, Math.min(1_000_000, Number(params.get(k)) || d));
    const opt = (k: string) => (params.has(k) ? n(k, 1) : undefined);
    return scaleFixture(n('attempts', 10), n('steps', 10_000), n('chars', 500), { files: opt('files'), specs: opt('specs'), tests: opt('tests') });
  }
  return standardFixture();
}
