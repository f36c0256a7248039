// Curator names: what a name may contain, and which source it came from.

export const MAX_CURATOR_LENGTH = 100;

/**
 * Control characters (C0, DEL, C1), line/paragraph separators and bidirectional overrides: any of them would let a
 * name break a log line, a table row or the way another curator's name is displayed.
 */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/u;

/** Why `name` cannot be a curator name, or undefined when it can. */
export function curatorNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.trim().length === 0) return 'curator name is empty';
  if (name !== name.trim()) return 'curator name starts or ends with white space';
  if (name.length > MAX_CURATOR_LENGTH) return `curator name is longer than ${MAX_CURATOR_LENGTH} characters`;
  const m = FORBIDDEN.exec(name);
  if (m) {
    const code = (m[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    return `curator name contains the control character U+${code} at position ${m.index + 1}`;
  }
  return undefined;
}

export type CuratorSource = 'option' | 'setting' | 'git' | 'env';

/**
 * Picks the curator name from the first source that has one (an explicit option, then git's user.name, then the
 * login name). Whitespace around a name from git or the environment is trimmed; an explicit name is taken as typed.
 */
export function chooseCurator(candidates: Array<{ source: CuratorSource; value: string | undefined }>):
  | { ok: true; name: string; source: CuratorSource }
  | { ok: false; source?: CuratorSource; message: string } {
  for (const c of candidates) {
    if (c.value === undefined) continue;
    const value = c.source === 'option' || c.source === 'setting' ? c.value : c.value.trim();
    if (value.length === 0 && c.source !== 'option' && c.source !== 'setting') continue;
    const problem = curatorNameProblem(value);
    if (problem) return { ok: false, source: c.source, message: `${problem} (from ${describeSource(c.source)})` };
    return { ok: true, name: value, source: c.source };
  }
  return { ok: false, message: 'no curator name: pass --curator NAME, or set git config user.name' };
}

function describeSource(s: CuratorSource): string {
  switch (s) {
    case 'option':
      return '--curator';
    case 'setting':
      return 'the specweave.curator.name setting';
    case 'git':
      return 'git config user.name';
    case 'env':
      return '$USER';
  }
}
