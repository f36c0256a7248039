// The manifest and the code agree: every contributed command is registered, every registered specweave.* command is
// contributed, and menus and keybindings name only contributed commands.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, extensionId } from './helpers';

interface Manifest {
  contributes: {
    commands: Array<{ command: string; title: string; category?: string }>;
    menus: Record<string, Array<{ command: string }>>;
    keybindings: Array<{ command: string; key: string; when?: string }>;
    views: Record<string, Array<{ id: string }>>;
  };
}

describe('commands', () => {
  let manifest: Manifest;
  before(async () => {
    await api();
    manifest = vscode.extensions.getExtension(extensionId)?.packageJSON as Manifest;
  });

  it('registers exactly the contributed specweave.* commands', async () => {
    const contributed = manifest.contributes.commands.map((c) => c.command).sort();
    // VS Code registers focus/open/toggle commands for every contributed view itself.
    const generated = new Set(
      Object.values(manifest.contributes.views)
        .flat()
        .flatMap((v) => ['focus', 'open', 'removeView', 'resetViewLocation', 'toggleVisibility'].map((s) => `${v.id}.${s}`)),
    );
    const registered = (await vscode.commands.getCommands(true)).filter((c) => c.startsWith('specweave.') && !generated.has(c)).sort();
    assert.ok(contributed.length >= 20, `only ${contributed.length} commands contributed`);
    assert.deepEqual(
      registered.filter((c) => !contributed.includes(c)),
      [],
      'registered but not in package.json',
    );
    assert.deepEqual(
      contributed.filter((c) => !registered.includes(c)),
      [],
      'in package.json but not registered',
    );
  });

  it('names commands specweave.noun.verb, in the SpecWeave category', () => {
    for (const c of manifest.contributes.commands) {
      assert.match(c.command, /^specweave\.[a-z]+\.[a-z][A-Za-z]*$/);
      assert.equal(c.category, 'SpecWeave', c.command);
    }
  });

  it('menus and keybindings refer to contributed commands; keybindings only act in the task panel', () => {
    const ids = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
      for (const i of items) assert.ok(ids.has(i.command), `${menu} names unknown ${i.command}`);
    }
    const workbenchKeys = [
      'specweave.attempt.next',
      'specweave.attempt.previous',
      'specweave.diff.open',
      'specweave.search.focus',
      'specweave.search.nextHit',
      'specweave.search.previousHit',
      'specweave.task.next',
      'specweave.task.previous',
    ];
    for (const id of workbenchKeys) {
      const k = manifest.contributes.keybindings.find((b) => b.command === id);
      assert.ok(k, `no keybinding for ${id}`);
      assert.equal(k.when, 'specweave.taskPanelActive', id);
    }
    for (const k of manifest.contributes.keybindings) assert.ok(k.when && k.when.includes('specweave.'), `${k.command} is bound everywhere`);
  });

  it('forwarding commands without a task panel say so instead of failing', async () => {
    assert.equal(await vscode.commands.executeCommand('specweave.attempt.next'), false);
  });
});
