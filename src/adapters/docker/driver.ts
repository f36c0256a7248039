// The script a run's container executes, in the SWE-bench order: keep a copy of every file the test patch touches,
// apply the attempt's patch, put those files back to their base version (deleting the ones that did not exist at
// base), then apply the test patch, so an attempt cannot change the tests it is graded by. Each patch goes through
// `git apply`, else `patch --fuzz=3` on a CRLF-normalised copy. The driver reports how each applied, clears the
// report paths, asks pytest for a JUnit report at a path the harness owns (outside the repository), prints a marker,
// then runs the verifier command under `timeout`. Everything before the marker is the driver's report.
import type { ApplyMethod, PatchApplication } from '../../core/verify/runResult';

/** Where the driver and its inputs are uploaded in the container. */
export const INPUT_DIR = '.specweave';
/** Where pytest writes the harness-owned JUnit report (PYTEST_ADDOPTS=--junitxml=...): outside the workdir. */
export const HARNESS_REPORT_PATH = `/${INPUT_DIR}/out/junit.xml`;
export const TESTS_BEGIN_MARKER = '@@SPECWEAVE tests-begin@@\n';
const TAG = '@@SPECWEAVE';

/** Quotes a string for POSIX sh. */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface DriverOptions {
  workdir: string;
  timeoutSec: number;
  /** Grace between the SIGTERM of `timeout` and its SIGKILL. */
  killAfterSec: number;
  /** Workdir-relative JUnit report path to delete before the tests (so a patch cannot plant one). */
  junitPath?: string;
  /** Where run.sh, command.sh and the patches are (default `/.specweave`; tests run the driver on the host). */
  inputDir?: string;
  /** Workdir-relative files the test patch touches (`testPatchPaths`): put back to base after the attempt's patch. */
  restorePaths?: string[];
  /** Absolute path where pytest writes the harness's JUnit report (cleared first); none = not asked for. */
  harnessReportPath?: string;
  /**
   * End the run when stdin reaches EOF: the engine closes it when the client that started the run disconnects
   * (`StdinOnce`), e.g. after `kill -9`. Only for containers, whose stdin is the client's attach stream.
   */
  watchdog?: boolean;
  /** Patches already written into place by the archive (the verifier's `unpackTo`): reported `unpacked`, not applied. */
  unpacked?: { test?: boolean; attempt?: boolean };
  /** Absolute paths read back after the run (reward files): deleted before the tests, their folders created. */
  outputFiles?: string[];
  /**
   * A run in a warm container (`docker exec`): the tests are not exec'd but waited for, then every process of the
   * run's user is killed, so nothing the run started outlives it (and the output stream ends).
   */
  warm?: boolean;
}

/** Reads one C-quoted git path starting at `s[i] === '"'`: escapes are bytes, the bytes UTF-8. */
function readQuoted(s: string, i: number): { path: string; end: number } | undefined {
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  const bytes: number[] = [];
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j] as string;
    if (c === '"') return { path: Buffer.from(bytes).toString('utf8'), end: j + 1 };
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const oct = /^[0-7]{1,3}/.exec(s.slice(j + 1))?.[0];
    if (oct) {
      bytes.push(parseInt(oct, 8) & 0xff);
      j += oct.length;
    } else {
      const n = s[j + 1] ?? '';
      bytes.push(simple[n] ?? n.charCodeAt(0));
      j += 1;
    }
  }
  return undefined;
}

/** A `---`/`+++` header path: unquoted, timestamp dropped. */
function headerPath(raw: string): string | undefined {
  const p = raw.startsWith('"') ? readQuoted(raw, 0)?.path : raw.replace(/\t.*$/, '');
  return p === '/dev/null' ? undefined : p;
}

/** The two paths of a `diff --git` line, or none when unquoted names with spaces make it ambiguous. */
function gitHeaderPaths(rest: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < rest.length && tokens.length < 3) {
    if (rest[i] === ' ') {
      i++;
      continue;
    }
    if (rest[i] === '"') {
      const q = readQuoted(rest, i);
      if (!q) return [];
      tokens.push(q.path);
      i = q.end;
    } else {
      const end = rest.indexOf(' ', i);
      tokens.push(rest.slice(i, end < 0 ? rest.length : end));
      i = end < 0 ? rest.length : end;
    }
  }
  if (tokens.length === 2) return tokens;
  // `a/my file b/my file`: split in the middle when both halves name the same file.
  const half = (rest.length - 1) / 2;
  const x = rest.slice(0, half);
  const y = rest.slice(half + 1);
  return Number.isInteger(half) && rest[half] === ' ' && stripOne(x) === stripOne(y) ? [x] : [];
}

/** `-p1`, as `git apply` and `patch -p1` read a header path: the first component goes. */
function stripOne(p: string): string {
  return p.replace(/^[^/]*\/+/, '');
}

/**
 * The workdir-relative paths a patch touches (both sides of renames and copies), for putting them back to base.
 * Hunk bodies are skipped by their line counts; a `---` line followed by `+++` counts as a header even inside one
 * (taking one path too many is harmless, one too few would let an attempt keep its version of a test file).
 * Unsafe paths (absolute, `..`, NUL) are left out: `git apply` and `patch` refuse them anyway.
 */
export function testPatchPaths(patch: Buffer | string): string[] {
  const lines = (typeof patch === 'string' ? patch : patch.toString('utf8')).split('\n').map((l) => l.replace(/\r$/, ''));
  const out = new Set<string>();
  const add = (p: string | undefined, strip: boolean) => {
    if (p === undefined) return;
    const clean = (strip ? stripOne(p) : p).replace(/^(\.\/)+/, '').replace(/\/+$/, '');
    if (clean === '' || clean.includes('\0') || clean.startsWith('/') || clean.split('/').some((c) => c === '..' || c === '')) return;
    out.add(clean);
  };
  let oldLeft = 0;
  let newLeft = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fileHeader = line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ');
    if ((oldLeft > 0 || newLeft > 0) && !fileHeader) {
      const c = line[0];
      if (c === '\\') continue;
      if (c === '-' || c === '+' || c === ' ' || line === '') {
        if (c !== '+') oldLeft--;
        if (c !== '-') newLeft--;
        continue;
      }
    }
    oldLeft = 0;
    newLeft = 0;
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
    } else if (line.startsWith('diff --git ')) {
      for (const p of gitHeaderPaths(line.slice('diff --git '.length))) add(p, true);
    } else if (fileHeader) {
      add(headerPath(line.slice(4)), true);
      add(headerPath((lines[i + 1] as string).slice(4)), true);
      i++;
    } else {
      const m = /^(?:rename|copy) (?:from|to) (.*)$/.exec(line);
      if (m) add(headerPath(m[1] as string), false);
    }
  }
  return [...out];
}

export function driverScript(o: DriverOptions): string {
  const inDir = o.inputDir ?? `/${INPUT_DIR}`;
  const t = Number.isInteger(o.timeoutSec) ? String(o.timeoutSec) : o.timeoutSec.toFixed(3);
  const restore = o.restorePaths ?? [];
  const lines = [
    '#!/bin/sh',
    '# Generated by SpecWeave for one verifier run.',
    `IN=${shQuote(inDir)}`,
    ...(o.watchdog
      ? [
          // $$ is the driver, later `timeout`: killing it ends the container's init, which takes every process with
          // it. Only as PID 1 (no init) is everything else killed instead. The tests get /dev/null as stdin.
          'exec 3<&0 </dev/null',
          '( cat <&3 >/dev/null 2>&1; if [ "$$" = 1 ]; then kill -9 -1; else kill -9 $$; fi ) 2>/dev/null &',
          'exec 3<&-',
        ]
      : []),
    `cd ${shQuote(o.workdir)} || { echo "${TAG} detail test"; echo "cannot enter the workdir ${o.workdir.replace(/["$`\\]/g, '')}"; echo "${TAG} apply test failed"; exit 90; }`,
    'T=$(mktemp -d 2>/dev/null || echo /tmp/.specweave-$$)',
    'mkdir -p "$T"',
    'apply() {',
    '  f="$IN/$1.patch"',
    `  if [ ! -s "$f" ]; then echo "${TAG} apply $1 empty"; return 0; fi`,
    `  if git -c safe.directory='*' apply --whitespace=nowarn "$f" >"$T/$1.git" 2>&1; then echo "${TAG} apply $1 git-apply"; return 0; fi`,
    '  tr -d \'\\r\' <"$f" >"$T/$1.lf" 2>"$T/$1.patch"',
    '  if patch --batch --forward --fuzz=3 -p1 --dry-run <"$T/$1.lf" >>"$T/$1.patch" 2>&1 &&',
    '     patch --batch --forward --fuzz=3 -p1 --no-backup-if-mismatch <"$T/$1.lf" >>"$T/$1.patch" 2>&1; then',
    `    echo "${TAG} apply $1 patch-fuzz"; return 0`,
    '  fi',
    `  echo "${TAG} detail $1"`,
    '  echo "git apply:"; head -c 2000 "$T/$1.git"; echo',
    '  echo "patch --fuzz=3:"; head -c 2000 "$T/$1.patch"; echo',
    `  echo "${TAG} apply $1 failed"`,
    '  return 1',
    '}',
    // The base versions are copied before the attempt's patch runs; nothing of the attempt has run yet.
    'B="$T/base"',
    'keep() {',
    '  if [ -e "./$1" ] || [ -L "./$1" ]; then',
    '    case "$1" in */*) mkdir -p "$B/${1%/*}" || return 1 ;; esac',
    '    cp -R -P -p "./$1" "$B/$1" || return 1',
    '  fi',
    '  return 0',
    '}',
    // A parent the attempt turned into a file or a symlink is replaced by a folder, so nothing is written through it.
    'restore() {',
    '  p=""; r="$1"',
    '  while :; do',
    '    case "$r" in */*) ;; *) break ;; esac',
    '    c=${r%%/*}; r=${r#*/}; p="${p:+$p/}$c"',
    '    if [ -L "./$p" ] || { [ -e "./$p" ] && [ ! -d "./$p" ]; }; then rm -f "./$p" || return 1; fi',
    '    [ -d "./$p" ] || mkdir "./$p" || return 1',
    '  done',
    '  rm -rf "./$1" || return 1',
    '  if [ -e "$B/$1" ] || [ -L "$B/$1" ]; then cp -R -P -p "$B/$1" "./$1" || return 1; fi',
    '  return 0',
    '}',
    `set -- ${restore.map(shQuote).join(' ')}`,
    'keep_all() {',
    `  for f do keep "$f" || { echo "${TAG} detail test"; echo "cannot keep the base version of $f"; echo "${TAG} apply test failed"; return 1; }; done`,
    '}',
    'restore_all() {',
    `  for f do restore "$f" || { echo "${TAG} detail test"; echo "cannot put $f back to its base version"; echo "${TAG} apply test failed"; return 1; }; done`,
    `  if [ $# -gt 0 ]; then echo "${TAG} restore $# file(s) the test patch touches to their base version"; fi`,
    '}',
    `{ keep_all "$@" && ${o.unpacked?.attempt ? `echo "${TAG} apply attempt unpacked"` : 'apply attempt'} && restore_all "$@" && ${o.unpacked?.test ? `echo "${TAG} apply test unpacked"` : 'apply test'}; } 2>&1 || exit 91`,
    'rm -rf "$T"',
  ];
  if (o.junitPath) lines.push(`rm -f -- ${shQuote(o.junitPath)}`);
  if (o.harnessReportPath) {
    const h = shQuote(o.harnessReportPath);
    lines.push(
      `rm -rf -- ${h}`,
      `if [ -e ${h} ] || [ -L ${h} ]; then echo "${TAG} cannot clear the harness report path ${o.harnessReportPath.replace(/["$`\\]/g, '')}"; exit 92; fi`,
      // Appended, so it comes after whatever the image sets; a --junitxml on the command line still wins (pytest's rule).
      `PYTEST_ADDOPTS="\${PYTEST_ADDOPTS:+$PYTEST_ADDOPTS }--junitxml=${o.harnessReportPath}"`,
      'export PYTEST_ADDOPTS',
    );
  }
  // Files the verifier reads after the run must be the tests' own: none may be planted before they start.
  for (const f of o.outputFiles ?? []) {
    const dir = f.replace(/\/[^/]*$/, '') || '/';
    lines.push(`mkdir -p -- ${shQuote(dir)} 2>/dev/null; rm -f -- ${shQuote(f)}`);
  }
  lines.push(
    'if [ -x /bin/bash ]; then SH=/bin/bash; else SH=/bin/sh; fi',
    // SWE-bench-style images keep the tests' Python in a conda environment named `testbed`, activated by their eval
    // scripts (`source /opt/miniconda3/bin/activate; conda activate testbed`), not by a login shell: the command runs
    // inside it where the image has one, as the harness runs it.
    'RUN_IN="$IN/command.sh"',
    'for c in /opt/miniconda3 /opt/conda /root/miniconda3 /usr/local/miniconda3; do',
    '  if [ -f "$c/bin/activate" ] && [ -d "$c/envs/testbed" ]; then',
    `    printf '. "%s"; conda activate testbed || exit 93\\n. "%s"\\n' "$c/bin/activate" "$IN/command.sh" >"$T.conda.sh" 2>/dev/null && RUN_IN="$T.conda.sh" && echo "${TAG} env conda testbed ($c)"`,
    '    break',
    '  fi',
    'done',
    `printf '\\n${TESTS_BEGIN_MARKER.replace('\n', '\\n')}'`,
    ...(o.warm
      ? [
          `if command -v timeout >/dev/null 2>&1; then timeout -k ${o.killAfterSec} ${t} "$SH" "$RUN_IN"; else "$SH" "$RUN_IN"; fi`,
          'rc=$?',
          // kill(-1) spares the caller: every other process of this user (a daemon the tests left) goes.
          'kill -9 -1 2>/dev/null',
          'exit $rc',
        ]
      : [`if command -v timeout >/dev/null 2>&1; then exec timeout -k ${o.killAfterSec} ${t} "$SH" "$RUN_IN"; fi`, 'exec "$SH" "$RUN_IN"']),
    '',
  );
  return lines.join('\n');
}

const KNOWN = new Set(['git-apply', 'patch-fuzz', 'empty', 'unpacked', 'failed']);

/** How each patch applied, read from the driver's report (the output before the marker). */
export function parsePrelude(prelude: string): { test: PatchApplication; attempt: PatchApplication } {
  const out: { test: PatchApplication; attempt: PatchApplication } = { test: { method: 'not-run' }, attempt: { method: 'not-run' } };
  let detailFor: 'test' | 'attempt' | undefined;
  let detail: string[] = [];
  for (const line of prelude.split('\n')) {
    const m = /^@@SPECWEAVE (apply|detail) (test|attempt)(?: (\S+))?$/.exec(line);
    if (!m) {
      if (detailFor) detail.push(line);
      continue;
    }
    const which = m[2] as 'test' | 'attempt';
    if (m[1] === 'detail') {
      detailFor = which;
      detail = [];
      continue;
    }
    const method = (KNOWN.has(m[3] ?? '') ? m[3] : 'failed') as ApplyMethod;
    out[which] = method === 'failed' ? { method, detail: detail.join('\n').trim() || `unknown report "${line}"` } : { method };
    detailFor = undefined;
  }
  return out;
}
