// local/no-cycle (eslint-rules/noCycle.mjs) through the ESLint Node API, over small trees written for each test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { localPlugin } from '../../../eslint-rules/noCycle.mjs';

async function lintTree(files: Record<string, string>): Promise<string[]> {
  const cwd = mkdtempSync(join(tmpdir(), 'nocycle-'));
  try {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(cwd, rel)), { recursive: true });
      writeFileSync(join(cwd, rel), text);
    }
    const eslint = new ESLint({
      cwd,
      overrideConfigFile: true,
      overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { local: localPlugin }, rules: { 'local/no-cycle': 'error' } }],
    });
    const results = await eslint.lintFiles(['.']);
    return results
      .flatMap((r) => r.messages.map((m) => `${r.filePath.slice(cwd.length + 1)}:${m.line} ${m.ruleId} ${m.message}`))
      .sort();
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

test('an import that closes a cycle is reported in each file of the cycle, naming its files (type-only and index.ts imports count)', async () => {
  const messages = await lintTree({
    'a.ts': "import { b } from './b';\nexport const a = () => b();\n",
    'b.ts': "import type { C } from './c';\nexport const b = (): C | undefined => undefined;\n",
    'c/index.ts': "export { a } from '../a';\nexport type C = number;\n",
    'leaf.ts': "import { a } from './a';\nexport const leaf = a;\n",
  });
  assert.deepEqual(messages, [
    'a.ts:1 local/no-cycle Import cycle: a.ts -> b.ts -> c/index.ts -> a.ts.',
    'b.ts:1 local/no-cycle Import cycle: b.ts -> c/index.ts -> a.ts -> b.ts.',
    'c/index.ts:1 local/no-cycle Import cycle: c/index.ts -> a.ts -> b.ts -> c/index.ts.',
  ]);
});

test('a tree without a cycle (a diamond, a package import, an unresolved path) has no report', async () => {
  const messages = await lintTree({
    'a.ts': "import { b } from './b';\nimport { c } from './c.js';\nimport { x } from 'some-package';\nimport { y } from './missing';\nexport const a = [b, c, x, y];\n",
    'b.ts': "import { d } from './d';\nexport const b = d;\n",
    'c.ts': "import { d } from './d';\nexport const c = d;\n",
    'd.ts': 'export const d = 1;\n',
  });
  assert.deepEqual(messages, []);
});
