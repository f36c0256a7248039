// The benchmarks' own row shapes, each mapped to one instance row: SWE-bench (and SWE-Gym, SWE-bench Multilingual,
// SWE-smith, SWE-rebench), SWE-bench Pro, Multi-SWE-bench, SWE-bench-Live, SWE-PolyBench, R2E-Gym and Scale-SWE. Each
// reader says where the benchmark keeps what the row does not carry (its image, its workdir, its test command), and
// what of the row is kept but not used.
import type { ResultParser } from '../model';
import type { InstanceFlavor, InstanceRow, RowCommand, RowFields } from './instanceRow';
import { r2eChange, r2eTests } from './r2eGym';
import { isObject } from './records';

/** The row's benchmark, from the fields only it has. */
export function flavorOf(v: Record<string, unknown>): InstanceFlavor {
  const has = (k: string) => k in v;
  if (has('parsed_commit_content') || (has('repo_name') && has('expected_output_json'))) return 'r2e-gym';
  if (has('org') && has('number') && (has('fix_patch') || has('base'))) return 'multi-swe-bench';
  if (has('parent_commit') || has('f2p_script') || (has('image_url') && has('user'))) return 'scale-swe';
  if (has('fail_to_pass') || has('dockerhub_tag') || has('selected_test_files_to_run') || has('before_repo_set_cmd')) return 'swe-bench-pro';
  if (has('F2P') || has('P2P') || (has('test_command') && has('Dockerfile'))) return 'swe-polybench';
  if (has('test_cmds') || has('rebuild_cmds') || has('PR_Title')) return 'swe-bench-live';
  if (isObject(v.install_config)) return 'swe-rebench';
  const image = v.image_name ?? v.docker_image;
  if (typeof image === 'string' && image && v.test_patch === undefined) return 'swe-smith';
  return 'swe-bench';
}

type Draft = Omit<InstanceRow, 'file' | 'line'>;

/** Reads a row of the given benchmark; undefined when it cannot become a task (a problem says why). */
export function readShape(flavor: InstanceFlavor, f: RowFields, key: string | undefined): Draft | undefined {
  switch (flavor) {
    case 'multi-swe-bench':
      return multiSwebench(f);
    case 'r2e-gym':
      return r2eGym(f);
    case 'scale-swe':
      return scaleSwe(f);
    case 'swe-bench-pro':
      return swebenchPro(f, key);
    default:
      return swebenchLike(f, key, flavor);
  }
}

function idOf(f: RowFields, key: string | undefined): string | undefined {
  const id = f.text('instance_id')?.trim() ?? key;
  f.instanceId = id;
  if (!id) f.problem('instance_id', 'row has no instance_id; it is skipped');
  return id;
}

function requireRepo(f: RowFields, repo: string | undefined, field: string, what = '"owner/name"'): string | undefined {
  if (repo && repo.trim()) return repo.trim();
  f.problem(field, `row has no repo (${what}); it is skipped`);
  return undefined;
}

/** Optional fields set only when present. */
function withOptional<T extends object>(base: T, optional: Partial<Record<keyof Draft, unknown>>): T {
  const out = base as Record<string, unknown>;
  for (const [k, v] of Object.entries(optional)) if (v !== undefined && v !== '') out[k] = v;
  return base;
}

/**
 * The commands of an SWE-bench eval script (v5 rows): the build steps after the test patch's here-document, then
 * what runs between its markers. Here-document bodies (the test patch) are skipped whole, so a marker line inside a
 * patch does not count.
 */
export function evalScriptTestCommand(script: string): string | undefined {
  const lines = script.replace(/\r\n?/g, '\n').split('\n');
  let here: string | undefined;
  let afterHere = 0;
  let start = -1;
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    if (here !== undefined) {
      if (l === here) {
        here = undefined;
        if (start < 0) afterHere = i + 1;
      }
      continue;
    }
    if (start < 0 && l.includes('>>>>> Start Test Output')) start = i;
    else if (start >= 0 && l.includes('>>>>> End Test Output')) {
      end = i;
      break;
    }
    const open = /<<-?\s*(['"]?)([A-Za-z_]\w*)\1\s*$/.exec(l);
    if (open) here = open[2];
  }
  if (start < 0) return undefined;
  const build = afterHere > 0 && afterHere < start ? lines.slice(afterHere, start) : [];
  const cmds = [...build, ...lines.slice(start + 1, end)].map((l) => l.replace(/\s+$/, '')).filter((l) => l.trim() !== '');
  return cmds.length > 0 ? cmds.join('\n') : undefined;
}

/** SWE-bench rows and the datasets that share their fields: SWE-Gym, Multilingual, SWE-smith, SWE-rebench, SWE-bench-Live, SWE-PolyBench. */
function swebenchLike(f: RowFields, key: string | undefined, flavor: InstanceFlavor): Draft | undefined {
  const instanceId = idOf(f, key);
  if (!instanceId) return undefined;
  const repo = requireRepo(f, typeof f.v.repo === 'string' ? f.v.repo : undefined, 'repo');
  if (!repo) return undefined;
  const poly = flavor === 'swe-polybench';
  const failToPass = poly ? f.tests('F2P', 'F2P', 'fail-to-pass tests') : f.tests('FAIL_TO_PASS', 'FAIL_TO_PASS', 'fail-to-pass tests');
  const passToPass = poly ? f.tests('P2P', 'P2P', 'pass-to-pass tests') : f.tests('PASS_TO_PASS', 'PASS_TO_PASS', 'pass-to-pass tests');
  if (!failToPass || !passToPass) return undefined;
  const notes: string[] = [];
  const extraSource: Record<string, unknown> = {};
  let command: RowCommand | undefined;
  let logParser: string | undefined;
  let parser: ResultParser | undefined;
  let noParser: string | undefined;
  let workdir: string | undefined;
  let problemStatement = f.str('problem_statement') ?? '';
  let hintsText = f.str('hints_text');
  const imageName = (f.text('image_name') ?? f.text('docker_image') ?? f.text('image'))?.trim();
  const language = normLanguage(f.str('language') ?? f.str('repo_language'));
  let iface: string | undefined;

  const evalScript = f.text('eval_script');
  if (evalScript) {
    const cmd = evalScriptTestCommand(evalScript);
    if (cmd) command = { command: cmd, from: 'eval_script' };
    else notes.push("The row's eval_script has no `>>>>> Start Test Output` marker, so no test command was taken from it.");
    logParser = f.text('log_parser');
  }
  if (flavor === 'swe-rebench') {
    const install = f.v.install_config as Record<string, unknown>;
    const raw = install.test_cmd;
    const lines = f.lines('test_cmd', install, 'install_config.test_cmd');
    if (lines && lines.length > 0) {
      // V1 writes one string and its harness appends the test files; V2 writes a list, run as it is.
      command = typeof raw === 'string' ? { command: lines.join('\n'), from: 'install_config.test_cmd', appendTargets: true } : { command: lines.join('\n'), from: 'install_config.test_cmd' };
    }
    logParser = f.text('log_parser', install, 'install_config.log_parser') ?? logParser;
    const v2 = Array.isArray(raw) || /(^|\/)swerebenchv2\//.test(imageName ?? '');
    if (v2) {
      // SWE-rebench V2's images hold the repository in /<name> (its Dockerfile template's WORKDIR).
      const name = repo.split('/').filter(Boolean).pop();
      if (name) workdir = `/${name}`;
      if (!problemStatement.trim()) problemStatement = f.str('pr_description') ?? '';
      iface = f.text('interface');
    }
    for (const group of ['FAIL_TO_FAIL', 'PASS_TO_FAIL']) {
      const list = f.optionalTests(group);
      if (list === undefined) continue;
      extraSource[group] = list;
      if (list.length > 0) {
        notes.push(
          `The row lists ${list.length} ${group} test(s) (kept in source.${group}): SWE-rebench expects them to ${group === 'FAIL_TO_FAIL' ? 'fail before and after' : 'pass before and fail after'} the fix; ` +
            'SpecWeave grades only FAIL_TO_PASS and PASS_TO_PASS.',
        );
      }
    }
  }
  if (flavor === 'swe-bench-live') {
    if (!problemStatement.trim()) problemStatement = f.str('PR_Title') ?? '';
    hintsText ??= f.str('hints');
    const [rebuild, test, print] = ['rebuild_cmds', 'test_cmds', 'print_cmds'].map((k) => f.lines(k) ?? []) as [string[], string[], string[]];
    if (test.length > 0) command = { command: [...rebuild, ...test, ...print].join('\n'), from: 'rebuild_cmds + test_cmds + print_cmds' };
    logParser = f.text('log_parser');
    if (logParser && logParser.trim() !== 'pytest' && /\bdef\s+\w+\s*\(/.test(logParser)) {
      extraSource.log_parser = logParser;
      notes.push("The row's log_parser is Python code; it is kept in source.log_parser and not run: the output is read by a parser of SpecWeave's own.");
    }
  }
  if (poly) {
    const cmd = f.text('test_command');
    if (cmd) command = { command: cmd.trim(), from: 'test_command' };
    const dockerfile = f.text('Dockerfile') ?? f.text('dockerfile');
    if (dockerfile) {
      const wd = [...dockerfile.matchAll(/^\s*WORKDIR\s+(\S+)\s*$/gim)].pop()?.[1];
      if (wd && wd.startsWith('/')) workdir = wd;
      extraSource.dockerfile = dockerfile;
      notes.push('The row carries the Dockerfile of its image (kept in source.dockerfile); build it, or name the image with --image.');
    }
    for (const k of ['modified_nodes', 'task_category']) if (f.has(k)) extraSource[k] = f.v[k];
    const known = POLYBENCH_PARSERS[repo];
    if (known) {
      if (known.parser) parser = known.parser;
      else noParser = `SWE-PolyBench reads ${repo}'s output with its ${known.name} parser (${known.runner}), which SpecWeave does not have`;
    }
  }
  if (!imageName && flavor === 'swe-polybench') {
    notes.push('SWE-PolyBench rows name no image; its harness pulls ghcr.io/timesler/swe-polybench.eval.x86_64.<instance id, lower case>:<version> (give it with --image).');
  }
  if (f.text('image_assets')) extraSource.image_assets = f.v.image_assets;
  if (f.text('eval_type')) extraSource.eval_type = f.v.eval_type;
  if (f.text('eval_type')?.trim() === 'fail_only') {
    // SWE-bench's fail-only repositories: their parsers name failing tests only, and a test not named counts as passed.
    noParser = "SWE-bench grades this repository fail-only (eval_type: a test its output does not name counts as passed), which SpecWeave's grading does not do";
  }

  const draft: Draft = { instanceId, repo, problemStatement, failToPass, passToPass, flavor };
  return withOptional(draft, {
    baseCommit: f.str('base_commit'),
    patch: f.str('patch'),
    testPatch: f.str('test_patch'),
    hintsText,
    interface: iface,
    createdAt: f.str('created_at'),
    version: f.str('version'),
    environmentSetupCommit: f.str('environment_setup_commit'),
    difficulty: f.str('difficulty'),
    imageName,
    workdir,
    command,
    logParser,
    parser,
    noParser,
    language,
    extraSource: Object.keys(extraSource).length > 0 ? extraSource : undefined,
    notes: notes.length > 0 ? notes : undefined,
  });
}

/** SWE-PolyBench's parser classes by repository (its `REPO_TO_PARSER_CLASS`), as SpecWeave's parsers where one fits. */
const POLYBENCH_PARSERS: Record<string, { name: string; runner: string; parser?: ResultParser }> = {
  'google/guava': { name: 'JavaGenericParser', runner: 'Surefire XML', parser: 'maven' },
  'google/gson': { name: 'JavaGenericParser', runner: 'Surefire XML', parser: 'maven' },
  'apache/dubbo': { name: 'JavaGenericParser', runner: 'Surefire XML', parser: 'maven' },
  'apolloconfig/apollo': { name: 'JavaGenericParser', runner: 'Surefire XML', parser: 'maven' },
  'apache/rocketmq': { name: 'JavaGenericParser', runner: 'Surefire XML', parser: 'maven' },
  'trinodb/trino': { name: 'JavaGenericParser', runner: 'Surefire XML', parser: 'maven' },
  'prettier/prettier': { name: 'JavascriptJestPR', runner: 'jest', parser: 'jest' },
  'coder/code-server': { name: 'TypescriptJest', runner: 'jest', parser: 'jest' },
  'tailwindlabs/tailwindcss': { name: 'TypescriptJestTW', runner: 'jest', parser: 'jest' },
  'mrdoob/three.js': { name: 'JavascriptGenericParser', runner: 'its own test runner' },
  'sveltejs/svelte': { name: 'JavascriptGenericParser', runner: 'its own test runner' },
  'serverless/serverless': { name: 'JavascriptMocha', runner: 'mocha' },
  'microsoft/vscode': { name: 'TypescriptMocha', runner: 'mocha' },
  'angular/angular': { name: 'TypescriptBazelAngular', runner: 'bazel' },
  'mui/material-ui': { name: 'TypescriptMochaFileName', runner: 'mocha' },
  'Significant-Gravitas/AutoGPT': { name: 'PythonPyUnit', runner: 'pytest', parser: 'pytest' },
  'huggingface/transformers': { name: 'PythonPyUnit', runner: 'pytest', parser: 'pytest' },
  'langchain-ai/langchain': { name: 'PythonPyUnit', runner: 'pytest', parser: 'pytest' },
  'yt-dlp/yt-dlp': { name: 'PythonPyUnit', runner: 'pytest', parser: 'pytest' },
  'tensorflow/models': { name: 'PythonPyUnit', runner: 'pytest', parser: 'pytest' },
  'keras-team/keras': { name: 'PythonPyUnit', runner: 'pytest', parser: 'pytest' },
};

/** Language names as the benchmarks write them (`Java`, `golang`, `ts`), lower case and one word each. */
export function normLanguage(s: string | undefined): string | undefined {
  if (!s || !s.trim()) return undefined;
  const l = s.trim().toLowerCase();
  const alias: Record<string, string> = { py: 'python', golang: 'go', rs: 'rust', js: 'javascript', ts: 'typescript', 'c++': 'cpp', cc: 'cpp', kt: 'kotlin', rb: 'ruby' };
  return alias[l] ?? l;
}

/** SWE-bench Pro (HF `ScaleAI/SWE-bench_Pro`): lower-case test lists as strings, the request in three parts, `/app`. */
function swebenchPro(f: RowFields, key: string | undefined): Draft | undefined {
  const instanceId = idOf(f, key);
  if (!instanceId) return undefined;
  const repo = requireRepo(f, typeof f.v.repo === 'string' ? f.v.repo : undefined, 'repo');
  if (!repo) return undefined;
  const failToPass = f.tests('fail_to_pass', 'fail_to_pass', 'fail-to-pass tests');
  const passToPass = f.tests('pass_to_pass', 'pass_to_pass', 'pass-to-pass tests');
  if (!failToPass || !passToPass) return undefined;
  const notes: string[] = [];
  const extraSource: Record<string, unknown> = {};
  for (const k of ['repo_language', 'issue_specificity', 'issue_categories', 'before_repo_set_cmd', 'selected_test_files_to_run', 'dockerhub_tag', 'image_digest']) {
    if (f.has(k)) extraSource[k] = f.v[k];
  }
  let selected: string[] | undefined;
  if (f.has('selected_test_files_to_run')) {
    selected = f.optionalTests('selected_test_files_to_run');
  }
  const tag = f.text('dockerhub_tag')?.trim();
  const digest = f.text('image_digest')?.trim();
  // The harness pulls jefzda/sweap-images:<dockerhub_tag>; the tag is used as given (the producer's rule cuts it).
  let imageName = f.text('docker_image')?.trim() ?? (tag ? `jefzda/sweap-images:${tag}` : undefined);
  if (imageName && digest && /^sha256:[0-9a-f]{64}$/.test(digest)) imageName = `${imageName}@${digest}`;
  const before = f.text('before_repo_set_cmd');
  if (before) {
    const last = before.trim().split('\n').pop()?.trim();
    notes.push(`SWE-bench Pro runs the last line of before_repo_set_cmd (\`${last}\`) before its tests; here the test patch puts the test files in place (kept in source.before_repo_set_cmd).`);
  }
  let command: RowCommand | undefined;
  const runScript = f.text('run_script');
  const args = (selected ?? []).join(',');
  if (runScript) {
    let eof = 'SPECWEAVE_RUN_SCRIPT';
    for (let n = 2; runScript.split('\n').some((l) => l.trim() === eof); n++) eof = `SPECWEAVE_RUN_SCRIPT_${n}`;
    const script = '/tmp/specweave-run_script.sh';
    command = {
      command: `cat > ${script} <<'${eof}'\n${runScript.replace(/\n$/, '')}\n${eof}\nbash ${script}${args ? ` ${shellWord(args)}` : ''}`,
      from: 'run_script',
    };
  }
  const parserScript = f.text('parser_script');
  if (parserScript) {
    extraSource.parser_script = parserScript;
    notes.push("The row's parser_script (SWE-bench Pro's parser.py) is kept in source.parser_script and not run: the output is read by a parser of SpecWeave's own.");
  }
  const language = normLanguage(f.str('repo_language'));
  if (!runScript) {
    notes.push('The row has no run_script: SWE-bench Pro keeps it in run_scripts/<instance_id>/run_script.sh of its repository.');
  }
  const draft: Draft = { instanceId, repo, problemStatement: f.str('problem_statement') ?? '', failToPass, passToPass, flavor: 'swe-bench-pro' };
  return withOptional(draft, {
    baseCommit: f.str('base_commit'),
    patch: f.str('patch'),
    testPatch: f.str('test_patch'),
    requirements: f.text('requirements'),
    interface: f.text('interface'),
    createdAt: f.str('created_at'),
    imageName,
    workdir: '/app',
    command,
    language,
    testTargets: selected,
    commandHint: runScript ? undefined : 'SWE-bench Pro keeps it in run_scripts/<instance_id>/run_script.sh, not in the row',
    extraSource,
    notes,
  });
}

function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Multi-SWE-bench (`harness/dataset.py`): a pull request with its base, patches and test maps. */
function multiSwebench(f: RowFields): Draft | undefined {
  const org = f.text('org')?.trim();
  const name = f.text('repo')?.trim();
  const number = f.str('number')?.trim();
  const instanceId = f.text('instance_id')?.trim() ?? (org && name && number ? `${org}__${name}-${number}` : undefined);
  f.instanceId = instanceId;
  if (!instanceId) {
    f.problem('instance_id', 'row has no instance_id, nor the org, repo and number it is made of; it is skipped');
    return undefined;
  }
  const repo = requireRepo(f, org && name ? `${org}/${name}` : undefined, org ? 'repo' : 'org', '"org" and "repo"');
  if (!repo || !name || !org) return undefined;
  const keysOf = (field: string): string[] | undefined => {
    const x = f.v[field];
    if (x === undefined || x === null) return [];
    if (!isObject(x)) {
      f.problem(field, `${field} must be an object keyed by test name; the row is skipped`);
      return undefined;
    }
    return Object.keys(x);
  };
  const f2p = keysOf('f2p_tests');
  const s2p = keysOf('s2p_tests');
  const n2p = keysOf('n2p_tests');
  const p2p = keysOf('p2p_tests');
  if (!f2p || !s2p || !n2p || !p2p) return undefined;
  // The tests that pass only with the fix (fail, skip or are absent before it), then those that keep passing.
  const failToPass = [...new Set([...f2p, ...s2p, ...n2p])];
  const base = isObject(f.v.base) ? f.v.base : {};
  const issues = Array.isArray(f.v.resolved_issues) ? f.v.resolved_issues.filter(isObject) : [];
  const text = (o: Record<string, unknown>) => [o.title, o.body].filter((x): x is string => typeof x === 'string' && x.trim() !== '').join('\n\n');
  let problemStatement = f.str('problem_statement') ?? issues.map(text).filter(Boolean).join('\n\n');
  if (!problemStatement.trim()) problemStatement = text(f.v);
  const draft: Draft = { instanceId, repo, problemStatement, failToPass, passToPass: p2p, flavor: 'multi-swe-bench' };
  return withOptional(draft, {
    baseCommit: f.text('sha', base, 'base.sha')?.trim(),
    patch: f.str('fix_patch'),
    testPatch: f.str('test_patch'),
    imageName: number ? `mswebench/${org}_m_${name}:pr-${number}`.toLowerCase() : undefined,
    workdir: `/home/${name}`,
    command: { command: 'bash /home/run.sh', from: "the instance image's /home/run.sh" },
    language: normLanguage(f.str('language') ?? f.str('lang')),
    notes: [
      "Multi-SWE-bench keeps the test command in its instance images: /home/run.sh runs the repository's tests in /home/<repo> (its fix-run.sh applies the patches first; here the verifier has applied them).",
    ],
  });
}

const R2E_REPOS: Record<string, string> = {
  sympy: 'sympy/sympy',
  pandas: 'pandas-dev/pandas',
  pillow: 'python-pillow/Pillow',
  scrapy: 'scrapy/scrapy',
  pyramid: 'Pylons/pyramid',
  tornado: 'tornadoweb/tornado',
  datalad: 'datalad/datalad',
  aiohttp: 'aio-libs/aiohttp',
  coveragepy: 'nedbat/coveragepy',
  numpy: 'numpy/numpy',
  orange3: 'biolab/orange3',
};

function jsonField(f: RowFields, name: string): unknown {
  const x = f.v[name];
  if (typeof x !== 'string') return x;
  try {
    return JSON.parse(x);
  } catch (e) {
    f.problem(name, `${name} is a string but not JSON (${(e as Error).message})`);
    return undefined;
  }
}

/** R2E-Gym (HF `R2E-Gym/R2E-Gym-Lite`): no instance id, the base and gold change inside `parsed_commit_content`. */
function r2eGym(f: RowFields): Draft | undefined {
  const repoName = f.text('repo_name')?.trim();
  const commit = f.text('commit_hash')?.trim();
  const parsed = jsonField(f, 'parsed_commit_content');
  const change = parsed === undefined ? undefined : r2eChange(parsed);
  const newCommit = commit ?? (change && !('error' in change) ? change.newCommit : undefined);
  // R2E-Gym names a commit's work folder `<repo_name>_<new commit>`; that is the task id.
  const instanceId = f.text('instance_id')?.trim() ?? (repoName && newCommit ? `${repoName}_${newCommit}` : undefined);
  f.instanceId = instanceId;
  if (!instanceId) {
    f.problem('repo_name', 'row has no repo_name and commit_hash to name it by; it is skipped');
    return undefined;
  }
  const repo = requireRepo(f, repoName ? (R2E_REPOS[repoName] ?? repoName) : undefined, 'repo_name', '"repo_name"');
  if (!repo) return undefined;
  if (!change || 'error' in change) {
    f.problem('parsed_commit_content', `parsed_commit_content ${change && 'error' in change ? change.error : 'is missing'}: no base commit nor gold patch; the row is skipped`);
    return undefined;
  }
  const expected = jsonField(f, 'expected_output_json');
  if (!isObject(expected)) {
    f.problem('expected_output_json', 'expected_output_json must be an object of test name to status; the row is skipped');
    return undefined;
  }
  const execution = jsonField(f, 'execution_result_content');
  const t = r2eTests(expected, isObject(execution) ? execution : undefined);
  const notes = [
    "R2E-Gym's images hold the tests (r2e_tests/) and their runner (run_tests.sh) next to the repository; the verifier runs it. The row has no test patch.",
    ...t.notes,
  ];
  if (change.left.length > 0) {
    notes.push(`The gold patch is rebuilt from parsed_commit_content as R2E-Gym rebuilds it: ${change.left.length} test or non-Python file(s) of the commit are left out (${change.left.slice(0, 3).join(', ')}${change.left.length > 3 ? ', ...' : ''}).`);
  }
  const draft: Draft = { instanceId, repo, problemStatement: f.str('problem_statement') ?? '', failToPass: t.failToPass, passToPass: t.passToPass, flavor: 'r2e-gym' };
  return withOptional(draft, {
    baseCommit: change.oldCommit,
    patch: change.patch,
    imageName: f.text('docker_image')?.trim(),
    command: { command: 'bash run_tests.sh', from: "the image's run_tests.sh" },
    language: 'python',
    extraSource: {
      ...(newCommit ? { commit_hash: newCommit } : {}),
      ...(Object.keys(t.notPassing).length > 0 ? { r2e_expected_not_passing: t.notPassing } : {}),
    },
    notes,
  });
}

/** Scale-SWE (HF `AweAI-Team/Scale-SWE`): the owner in `user`, the base in `parent_commit`, a synthetic test file. */
function scaleSwe(f: RowFields): Draft | undefined {
  const instanceId = idOf(f, undefined);
  if (!instanceId) return undefined;
  const user = f.text('user')?.trim();
  const name = f.text('repo')?.trim();
  const repo = requireRepo(f, name ? (name.includes('/') ? name : user ? `${user}/${name}` : name) : undefined, 'repo', '"user" and "repo"');
  if (!repo) return undefined;
  const failToPass = f.tests('FAIL_TO_PASS', 'FAIL_TO_PASS', 'fail-to-pass tests');
  const passToPass = f.tests('PASS_TO_PASS', 'PASS_TO_PASS', 'pass-to-pass tests');
  if (!failToPass || !passToPass) return undefined;
  const notes: string[] = [];
  const extraSource: Record<string, unknown> = {};
  for (const k of ['pr_commit', 'github_url', 'pre_commands']) if (f.has(k)) extraSource[k] = f.v[k];
  // The evaluator writes f2p_script as test_fail_to_pass.py in the workdir; as a new file of the test patch it is
  // applied, shown and guarded like every other test file.
  let testPatch = f.str('f2p_patch') ?? '';
  const script = f.text('f2p_script');
  if (script) {
    if (testPatch && !testPatch.endsWith('\n')) testPatch += '\n';
    testPatch += newFileDiff('test_fail_to_pass.py', script);
  }
  if (f.text('pre_commands')) {
    notes.push("The row's pre_commands (run by Scale-SWE's harness when the container starts) are kept in source.pre_commands and not run: the image must already hold the repository at parent_commit.");
  }
  const workdir = f.text('workdir')?.trim();
  if (workdir && !workdir.startsWith('/')) f.problem('workdir', `workdir "${workdir}" is not an absolute path; the manifest's workdir is used`, 'warning');
  // The evaluator runs pytest on the listed node ids; their files here (a node id may hold spaces).
  const files = [...new Set([...failToPass, ...passToPass].map((t) => t.split('::')[0] as string).filter(Boolean))];
  const draft: Draft = { instanceId, repo, problemStatement: f.str('problem_statement') ?? '', failToPass, passToPass, flavor: 'scale-swe' };
  return withOptional(draft, {
    baseCommit: f.text('parent_commit')?.trim(),
    patch: f.str('patch'),
    testPatch,
    imageName: f.text('image_url')?.trim(),
    workdir: workdir?.startsWith('/') ? workdir : undefined,
    command: files.length > 0 ? { command: `pytest -rA ${files.map(shellWord).join(' ')}`, from: 'FAIL_TO_PASS + PASS_TO_PASS files (as Scale-SWE runs pytest on them)' } : undefined,
    language: normLanguage(f.str('language')),
    extraSource,
    notes,
  });
}

/** A unified diff that creates `file` with `content`. */
export function newFileDiff(file: string, content: string): string {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const noFinalNewline = lines[lines.length - 1] !== '';
  if (!noFinalNewline) lines.pop();
  return (
    `diff --git a/${file} b/${file}\nnew file mode 100644\n--- /dev/null\n+++ b/${file}\n@@ -0,0 +1,${lines.length} @@\n` +
    lines.map((l) => `+${l}\n`).join('') +
    (noFinalNewline ? '\\ No newline at end of file\n' : '')
  );
}
