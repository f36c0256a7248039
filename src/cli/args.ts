// A small, strict command-line parser: known flags only, clear errors, repeated flags collected.

export interface FlagSpec {
  /** `string` takes a value; `boolean` takes none; `list` takes a value and may repeat. */
  type: 'string' | 'boolean' | 'list';
  /** One-line help. */
  help: string;
}

export interface ParsedArgs {
  positional: string[];
  strings: Record<string, string | undefined>;
  booleans: Record<string, boolean>;
  lists: Record<string, string[]>;
}

export class UsageError extends Error {}

/** Parses `args` against `spec`; `--flag=value` and `--flag value` are both accepted. */
export function parseArgs(args: string[], spec: Record<string, FlagSpec>): ParsedArgs {
  const out: ParsedArgs = { positional: [], strings: {}, booleans: {}, lists: {} };
  for (const [name, s] of Object.entries(spec)) {
    if (s.type === 'boolean') out.booleans[name] = false;
    if (s.type === 'list') out.lists[name] = [];
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      out.positional.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('--') || a === '--') {
      out.positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    const s = spec[name];
    if (!s) throw new UsageError(`unknown option --${name}`);
    if (s.type === 'boolean') {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      out.booleans[name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = a.slice(eq + 1);
    else {
      value = args[i + 1];
      i++;
    }
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (s.type === 'string') out.strings[name] = value;
    else (out.lists[name] as string[]).push(value);
  }
  return out;
}

/** Renders the help text of a command from its flag spec. */
export function helpText(usage: string, spec: Record<string, FlagSpec>): string {
  const rows = Object.entries(spec).map(([n, s]) => {
    const left = s.type === 'boolean' ? `--${n}` : `--${n} ${n.toUpperCase().replace(/-/g, '_')}`;
    return [left, s.help + (s.type === 'list' ? ' (repeatable)' : '')] as const;
  });
  const width = Math.max(0, ...rows.map(([l]) => l.length));
  return [`usage: ${usage}`, '', ...rows.map(([l, h]) => `  ${l.padEnd(width)}  ${h}`), ''].join('\n');
}
