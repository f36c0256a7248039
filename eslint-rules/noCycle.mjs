// local/no-cycle: an import that closes an import cycle is an error, and the message names every file of the cycle.
// Only relative imports count (a package cannot import us back); type-only imports count too, since a cycle of types
// is still two files that cannot be understood, moved or tested apart. Other files' imports are read with the
// TypeScript parser (top-level statements only) and kept in a module-level graph, so one `eslint .` reads each file
// once; an entry is read again when the file's size or mtime changes (an editor's long-lived ESLint server).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** @type {Map<string, { key: string, deps: string[] }>} file -> its resolved relative imports, by size and mtime */
const graph = new Map();
/** @type {Map<string, string | null>} `dir\0specifier` -> resolved file */
const resolved = new Map();

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.d.ts'];

function isFile(p) {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** `./x` from `dir`: the file itself, `x.ts` (and the other TypeScript endings), `x/index.ts`; `./x.js` names x.ts. */
function resolve(dir, spec) {
  const memo = `${dir}\0${spec}`;
  const hit = resolved.get(memo);
  if (hit !== undefined) return hit;
  const base = path.resolve(dir, spec);
  const candidates = [];
  if (/\.[cm]?js$/.test(base)) candidates.push(base.replace(/\.([cm]?)js$/, '.$1ts'), base.replace(/\.[cm]?js$/, '.tsx'));
  if (/\.(ts|tsx|mts|cts)$/.test(base)) candidates.push(base);
  for (const ext of EXTENSIONS) candidates.push(base + ext);
  for (const ext of EXTENSIONS) candidates.push(path.join(base, 'index' + ext));
  const found = candidates.find(isFile) ?? null;
  resolved.set(memo, found);
  return found;
}

function relativeSpecifiers(statements) {
  const out = [];
  for (const s of statements) {
    if ((ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)) {
      out.push(s.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(s) && ts.isExternalModuleReference(s.moduleReference) && ts.isStringLiteral(s.moduleReference.expression)) {
      out.push(s.moduleReference.expression.text);
    }
  }
  return out.filter((spec) => spec.startsWith('./') || spec.startsWith('../'));
}

function depsOf(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const key = `${stat.size}:${stat.mtimeMs}`;
  const entry = graph.get(file);
  if (entry && entry.key === key) return entry.deps;
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    // unreadable: no edges; the file's own lint run reports what is wrong with it
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const dir = path.dirname(file);
  const deps = [...new Set(relativeSpecifiers(source.statements).map((s) => resolve(dir, s)).filter(Boolean))];
  graph.set(file, { key, deps });
  return deps;
}

/** The shortest import path from `from` back to `to`, as a list of files starting at `from`; undefined if none. */
function pathBack(from, to) {
  const parent = new Map([[from, null]]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    const f = queue[i];
    for (const d of depsOf(f)) {
      if (d === to) {
        const chain = [f];
        for (let p = parent.get(f); p; p = parent.get(p)) chain.unshift(p);
        return chain;
      }
      if (!parent.has(d)) {
        parent.set(d, f);
        queue.push(d);
      }
    }
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid an import that closes an import cycle (relative imports, type-only ones included).' },
    schema: [],
    messages: { cycle: 'Import cycle: {{cycle}}.' },
  },
  create(context) {
    const file = path.resolve(context.filename);
    const cwd = context.cwd;
    const dir = path.dirname(file);
    const nodes = [];
    const add = (node, source) => {
      if (source && typeof source.value === 'string' && (source.value.startsWith('./') || source.value.startsWith('../'))) {
        const target = resolve(dir, source.value);
        if (target) nodes.push({ node: source, target });
      }
    };
    return {
      ImportDeclaration: (n) => add(n, n.source),
      ExportNamedDeclaration: (n) => add(n, n.source),
      ExportAllDeclaration: (n) => add(n, n.source),
      TSImportEqualsDeclaration: (n) => n.moduleReference.type === 'TSExternalModuleReference' && add(n, n.moduleReference.expression),
      'Program:exit'() {
        // This file's own edges come from the text being linted (in an editor it may differ from the disk).
        const reported = new Set();
        for (const { node, target } of nodes) {
          if (reported.has(target)) continue;
          reported.add(target);
          const back = target === file ? [] : pathBack(target, file);
          if (!back) continue;
          const cycle = [file, ...back, file].map((f) => path.relative(cwd, f).split(path.sep).join('/'));
          context.report({ node, messageId: 'cycle', data: { cycle: cycle.join(' -> ') } });
        }
      },
    };
  },
};

export const localPlugin = { meta: { name: 'local' }, rules: { 'no-cycle': noCycle } };
