// Derives the files a step edited from what the agent ran: editor tools (str_replace_editor, Claude Code's
// Edit/Write/MultiEdit, OpenHands edit actions, SWE-agent's windowed editor) and the obvious shell forms
// (`sed -i`, `perl -i`, `cat > FILE`, `echo ... >> FILE`, `tee FILE`). Anything less obvious is left out on purpose:
// a wrong edit is worse than a missing one.

import type { FileEdit } from '../model';

/** Tool names whose `command` argument is a shell command line. */
const SHELL_TOOLS = new Set(['bash', 'execute_bash', 'shell', 'run', 'run_command', 'terminal', 'execute_command', 'cmd', 'exec', 'bash_command']);

/** str_replace_editor and its relatives: `{command, path}`, where `view` is the only read-only command. */
const EDITOR_TOOLS = new Set(['str_replace_editor', 'str_replace_based_edit_tool', 'file_editor', 'edit_tool', 'text_editor']);

/** Claude Code's file tools. */
const CLAUDE_EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

/** SWE-agent's windowed editor edits the file that is currently open. */
const OPEN_FILE_TOOLS = new Set(['edit', 'insert', 'edit_replace', 'edit_linting', 'append']);

/** Commands whose standard output, redirected to a file, obviously writes that file's content. */
const CONTENT_COMMANDS = new Set(['cat', 'echo', 'printf', 'sed', 'awk', 'perl', 'tr', 'envsubst']);

export interface EditContext {
  /** The file SWE-agent's windowed editor has open, if known. */
  openFile?: string;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** Parses tool-call arguments given as a JSON string or an object. */
export function argsObject(args: unknown): Record<string, unknown> {
  if (args !== null && typeof args === 'object' && !Array.isArray(args)) return args as Record<string, unknown>;
  if (typeof args === 'string') {
    const t = args.trim();
    if (t.startsWith('{')) {
      try {
        const v: unknown = JSON.parse(t);
        if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
      } catch {
        return {};
      }
    }
  }
  return {};
}

function add(out: FileEdit[], path: string | undefined, via: string): void {
  if (path === undefined) return;
  const p = path.trim();
  if (p.length === 0 || p === '/dev/null' || p.startsWith('/dev/') || p.startsWith('&')) return;
  if (!out.some((e) => e.path === p && e.via === via)) out.push({ path: p, via });
}

/** Edits made by one tool call, from its name and arguments. */
export function toolCallEdits(name: string, rawArgs: unknown, ctx: EditContext = {}): FileEdit[] {
  const args = argsObject(rawArgs);
  const out: FileEdit[] = [];
  const lower = name.toLowerCase();
  if (EDITOR_TOOLS.has(lower)) {
    const command = str(args.command);
    if (command === 'view') return out;
    add(out, str(args.path) ?? str(args.file_path), command !== undefined ? `${name} ${command}` : name);
    return out;
  }
  if (CLAUDE_EDIT_TOOLS.has(name)) {
    add(out, str(args.file_path) ?? str(args.notebook_path) ?? str(args.path), name);
    return out;
  }
  if (SHELL_TOOLS.has(lower) || name === 'Bash') {
    const command = str(args.command) ?? str(args.cmd) ?? str(args.keystrokes);
    return command !== undefined ? shellEdits(command) : out;
  }
  if (lower === 'create') {
    add(out, str(args.filename) ?? str(args.path) ?? str(args.file_path), 'create');
    return out;
  }
  if (OPEN_FILE_TOOLS.has(lower)) {
    add(out, str(args.path) ?? str(args.file_path) ?? ctx.openFile, name);
    return out;
  }
  // Other tools that plainly write a named file (write_file, create_file, replace_in_file, apply_edit...).
  if (/(write|create|edit|replace|insert|patch|save)/i.test(name) && !/(view|read|list|search|find|get)/i.test(name)) {
    add(out, str(args.path) ?? str(args.file_path) ?? str(args.filename) ?? str(args.target_file), name);
  }
  return out;
}

/**
 * Edits made by a SWE-agent action written as text (0.x thought/action, or the `action` of a 1.x step):
 * `edit 15:15`, `create FILE`, `str_replace_editor create FILE ...`, or a shell command.
 */
export function sweAgentActionEdits(action: string, ctx: EditContext = {}): FileEdit[] {
  const first = action.trimStart().split('\n', 1)[0] ?? '';
  const words = shellWords(first);
  const cmd = words[0];
  if (cmd === undefined) return [];
  if (EDITOR_TOOLS.has(cmd)) {
    const sub = words[1];
    if (sub === undefined || sub === 'view') return [];
    const out: FileEdit[] = [];
    add(out, words[2], `${cmd} ${sub}`);
    return out;
  }
  if (cmd === 'create') {
    const out: FileEdit[] = [];
    add(out, words[1], 'create');
    return out;
  }
  if (OPEN_FILE_TOOLS.has(cmd)) {
    const out: FileEdit[] = [];
    add(out, ctx.openFile, cmd);
    return out;
  }
  return shellEdits(action);
}

/**
 * The file SWE-agent reports as open in an observation: its state line `(Open file: /x/y.py)`, or else the
 * editor's window header `[File: /x/y.py (23 lines total)]`.
 */
export function openFileFromObservation(text: string): string | undefined {
  // The state line is appended after the command output, so the last one is the environment's.
  const marker = '(Open file: ';
  const at = text.lastIndexOf(marker);
  if (at >= 0) {
    const m = /^([^)\r\n]+)\)/.exec(text.slice(at + marker.length, at + marker.length + 4096));
    const f = m?.[1]?.trim();
    return f === undefined || f === 'n/a' || f.length === 0 ? undefined : f;
  }
  const header = /^\[File: ([^\r\n]+?) \(\d+ lines total\)\]/.exec(text.slice(0, 4096));
  return header?.[1];
}

/** A one-line description of a tool call for a step's text: the command line, or the tool and its file. */
export function toolCallSummary(name: string, rawArgs: unknown): string {
  const a = argsObject(rawArgs);
  const command = typeof a.command === 'string' ? a.command : undefined;
  if (command !== undefined && (SHELL_TOOLS.has(name.toLowerCase()) || name === 'Bash')) return command;
  const path = [a.file_path, a.path, a.notebook_path, a.filename].find((v): v is string => typeof v === 'string');
  if (path !== undefined) return `${name}${command !== undefined ? ' ' + command : ''} ${path}`;
  if (command !== undefined) return command;
  const pattern = typeof a.pattern === 'string' ? a.pattern : undefined;
  if (pattern !== undefined) return `${name} ${pattern}`;
  return `${name} ${typeof rawArgs === 'string' ? rawArgs : JSON.stringify(rawArgs ?? {})}`;
}

const SHELL_VIAS = new Set(['sed -i', 'perl -i', 'redirect', 'tee']);

/**
 * Removes the editor-tool edits of `step` when the tool's result says the edit was not made. Shell-derived edits
 * stay: a shell line's output cannot tell which of its commands failed.
 */
export function dropFailedEdits(step: { edits?: FileEdit[] }, resultText: string, isError = false, only?: readonly FileEdit[]): void {
  if (step.edits === undefined) return;
  if (!isError && !editFailed(resultText)) return;
  // With several calls in one step, `only` names the failed call's edits.
  const kept = step.edits.filter((e) => SHELL_VIAS.has(e.via) || (only !== undefined && !only.includes(e)));
  if (kept.length > 0) step.edits = kept;
  else delete step.edits;
}

/** Whether a tool result says the edit was not made. */
export function editFailed(resultText: string): boolean {
  const t = resultText.trimStart();
  return (
    t.startsWith('ERROR:') ||
    t.startsWith('Error:') ||
    /No replacement was performed|did not appear verbatim|Your proposed edit has introduced new syntax error|<tool_use_error>|EACCES|permission denied/i.test(
      t.slice(0, 2000),
    )
  );
}

// ---- shell ---------------------------------------------------------------------------------------------------

type Token = { op: string } | { word: string };

/** Splits a command line into words, honouring quotes and backslashes (no expansion). */
export function shellWords(line: string): string[] {
  return tokenize(line)
    .filter((t): t is { word: string } => 'word' in t)
    .map((t) => t.word);
}

function tokenize(line: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = line.length;
  let word: string | undefined;
  const flush = (): void => {
    if (word !== undefined) out.push({ word });
    word = undefined;
  };
  while (i < n) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      flush();
      i++;
      continue;
    }
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      const stop = end < 0 ? n : end;
      word = (word ?? '') + line.slice(i + 1, stop);
      i = stop + 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let s = '';
      while (j < n && line[j] !== '"') {
        if (line[j] === '\\' && j + 1 < n && '"\\$`'.includes(line[j + 1]!)) {
          s += line[j + 1];
          j += 2;
        } else {
          s += line[j];
          j++;
        }
      }
      word = (word ?? '') + s;
      i = j + 1;
      continue;
    }
    if (c === '\\' && i + 1 < n) {
      word = (word ?? '') + line[i + 1];
      i += 2;
      continue;
    }
    const rest = line.slice(i, i + 3);
    const op = /^(&&|\|\||>>|&>|<<-?|[;|&<>])/.exec(rest);
    if (op !== null) {
      // `2>` and `2>>` redirect stderr: they never carry a file's content.
      if ((op[1] === '>' || op[1] === '>>') && word !== undefined && /^\d+$/.test(word)) {
        const fd = word;
        word = undefined;
        out.push({ op: fd === '1' ? op[1] : `${fd}${op[1]}` });
      } else {
        flush();
        out.push({ op: op[1]! });
      }
      i += op[1]!.length;
      continue;
    }
    word = (word ?? '') + c;
    i++;
  }
  flush();
  return out;
}

/** Command lines with heredoc bodies removed (the body is data, not commands). */
function commandLines(command: string): string[] {
  const lines = command.split('\n');
  const out: string[] = [];
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    out.push(line);
    const markers: Array<{ tag: string; dash: boolean }> = [];
    const re = /(?<!<)<<(?!<)(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(line)) !== null) markers.push({ dash: m[1] === '-', tag: m[3]! });
    for (const { tag, dash } of markers) {
      k++;
      while (k < lines.length) {
        const body = lines[k]!.replace(/\r$/, '');
        if ((dash ? body.replace(/^\t+/, '') : body) === tag || body.trim() === tag) break;
        k++;
      }
    }
  }
  return out;
}

/** Files a shell command obviously writes. */
export function shellEdits(command: string): FileEdit[] {
  const out: FileEdit[] = [];
  for (const line of commandLines(command)) {
    const tokens = tokenize(line);
    let simple: Token[] = [];
    const flushSimple = (): void => {
      simpleCommandEdits(simple, out);
      simple = [];
    };
    for (const t of tokens) {
      if ('op' in t && (t.op === '&&' || t.op === '||' || t.op === ';' || t.op === '|' || t.op === '&')) flushSimple();
      else simple.push(t);
    }
    flushSimple();
  }
  return out;
}

function simpleCommandEdits(tokens: Token[], out: FileEdit[]): void {
  const words: string[] = [];
  const redirects: string[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if ('op' in t) {
      const next = tokens[k + 1];
      if ((t.op === '>' || t.op === '>>' || t.op === '&>') && next !== undefined && 'word' in next) {
        redirects.push(next.word);
        k++;
      } else if (next !== undefined && 'word' in next && t.op !== '|') {
        // `< file`, `<< EOF`, `2> log`: consume the operand, it is not an argument.
        k++;
      }
      continue;
    }
    words.push(t.word);
  }
  // Skip `VAR=value`, `sudo`, `env`, `command` prefixes.
  let s = 0;
  while (s < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[s]!) || words[s] === 'sudo' || words[s] === 'env' || words[s] === 'command')) s++;
  const argv = words.slice(s);
  const cmd = argv[0];
  if (cmd === undefined) return;
  const base = cmd.slice(cmd.lastIndexOf('/') + 1);
  if (base === 'sed') sedEdits(argv, out);
  else if (base === 'perl') perlEdits(argv, out);
  else if (base === 'tee') for (const a of argv.slice(1)) if (!a.startsWith('-')) add(out, a, 'tee');
  if (CONTENT_COMMANDS.has(base)) for (const r of redirects) add(out, r, 'redirect');
}

function sedEdits(argv: string[], out: FileEdit[]): void {
  let inPlace = false;
  let scriptGiven = false;
  const operands: string[] = [];
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k]!;
    if (a === '--') {
      operands.push(...argv.slice(k + 1));
      break;
    }
    if (a.startsWith('--')) {
      if (a.startsWith('--in-place')) inPlace = true;
      else if (a === '--expression' || a === '--file') {
        scriptGiven = true;
        k++;
      } else if (a.startsWith('--expression=') || a.startsWith('--file=')) scriptGiven = true;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      // A cluster such as -i, -i.bak, -ni, -Ei, -e SCRIPT, -f FILE.
      for (let p = 1; p < a.length; p++) {
        const f = a[p]!;
        if (f === 'i') {
          inPlace = true;
          break; // the rest is a backup suffix
        }
        if (f === 'e' || f === 'f') {
          scriptGiven = true;
          if (p === a.length - 1) k++;
          break;
        }
        if (f === 'l') {
          if (p === a.length - 1) k++;
          break;
        }
      }
      continue;
    }
    operands.push(a);
  }
  if (!inPlace) return;
  // BSD sed takes the backup suffix as its own argument: `sed -i '' 's/a/b/' file`.
  if (operands[0] === '') operands.shift();
  const files = scriptGiven ? operands : operands.slice(1);
  for (const f of files) add(out, f, 'sed -i');
}

function perlEdits(argv: string[], out: FileEdit[]): void {
  let inPlace = false;
  let scriptGiven = false;
  const operands: string[] = [];
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k]!;
    if (a.startsWith('-') && a.length > 1) {
      for (let p = 1; p < a.length; p++) {
        const f = a[p]!;
        if (f === 'i') {
          inPlace = true;
          break;
        }
        if (f === 'e' || f === 'E') {
          scriptGiven = true;
          if (p === a.length - 1) k++;
          break;
        }
      }
      continue;
    }
    operands.push(a);
  }
  if (!inPlace) return;
  const files = scriptGiven ? operands : operands.slice(1);
  for (const f of files) add(out, f, 'perl -i');
}

// ---- Codex apply_patch -------------------------------------------------------------------------------------------

/**
 * Files changed by a Codex `apply_patch` envelope (`*** Begin Patch` … `*** End Patch`, given as the tool's raw
 * input or inside a shell heredoc): `*** Add File:`, `*** Update File:` (and its `*** Move to:`), `*** Delete File:`.
 */
export function applyPatchEdits(text: string): FileEdit[] {
  const out: FileEdit[] = [];
  const begin = text.indexOf('*** Begin Patch');
  if (begin < 0) return out;
  const re = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+?)\r?$/gm;
  re.lastIndex = begin;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) add(out, m[2], 'apply_patch');
  return out;
}
