// The one command table (src/vscode/commandIds.ts) against what the extension declares: package.json contributes
// exactly the table's commands, each with a title; menus and keybindings name only them; and every action a task page
// may ask for runs one of them. A command added on one side only fails here, not in a user's command palette.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { COMMAND_TABLE, actionCommand, isCommandId } from '../../../src/vscode/commandIds';
import { REPAIR_ACTIONS, TASK_ACTIONS } from '../../../src/protocol/messages';

interface Contributes {
  commands: Array<{ command: string; title?: string; category?: string }>;
  menus: Record<string, Array<{ command?: string }>>;
  keybindings: Array<{ command: string }>;
}
const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: Contributes };
const contributed = pkg.contributes.commands.map((c) => c.command);
const table: readonly string[] = COMMAND_TABLE.map((c) => c.id);

test('the table lists each command once', () => {
  assert.equal(new Set(table).size, table.length, `twice in the table: ${table.filter((id, i) => table.indexOf(id) !== i).join(', ')}`);
  for (const id of table) assert.match(id, /^specweave\.[a-zA-Z]+\.[a-zA-Z]+$/, id);
});

test('package.json contributes exactly the commands of the table, each with a title', () => {
  assert.deepEqual(
    contributed.filter((id) => !table.includes(id)),
    [],
    'contributed in package.json but missing from the table',
  );
  assert.deepEqual(
    table.filter((id) => !contributed.includes(id)),
    [],
    'in the table but not contributed in package.json',
  );
  for (const c of pkg.contributes.commands) assert.ok(c.title && c.title.trim().length > 0, `${c.command} has no title`);
});

test('menus and keybindings name only commands of the table', () => {
  const named = [...Object.values(pkg.contributes.menus).flatMap((items) => items.map((i) => i.command).filter((c): c is string => c !== undefined)), ...pkg.contributes.keybindings.map((k) => k.command)];
  assert.ok(named.length > 10);
  // Built-in commands (e.g. workbench.*) may appear in menus; every specweave.* one must be ours.
  assert.deepEqual(
    named.filter((c) => c.startsWith('specweave.') && !isCommandId(c)),
    [],
  );
});

test('every action a task page may request runs a command of the table, with the task (and suggestion) as arguments', () => {
  for (const action of [...TASK_ACTIONS, ...REPAIR_ACTIONS]) {
    const [id, args] = actionCommand(action, 't1', 's1');
    assert.ok(isCommandId(id) && contributed.includes(id), `${action} runs ${id}`);
    if ((REPAIR_ACTIONS as readonly string[]).includes(action)) assert.deepEqual(args, ['t1', 's1'], action);
  }
  assert.equal(isCommandId('workbench.action.terminal.new'), false);
  assert.equal(isCommandId('specweave.repair.apiKey'), false, 'a secret key name is not a command');
});
