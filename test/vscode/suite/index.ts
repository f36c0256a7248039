// Runs inside the extension host: @vscode/test-electron's extensionTestsPath points here. Loads the compiled test
// files of this pass and prints the plain closing line `N passed, N failed` that CI reads.
//
// Two passes: SPECWEAVE_TEST_TRUST=restricted (workspace opened untrusted) runs the files under restricted/, the
// trusted pass runs every other file. Each pass checks it really got the trust it asked for.
import { readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import * as vscode from 'vscode';

// The launcher relays lines with this prefix to the terminal and keeps the workbench's own chatter in a file.
const suiteMarker = '[specweave-suite] ';
const report = (...args: unknown[]): void => console.log(suiteMarker + format(...args));

function testFiles(restricted: boolean): string[] {
  return readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.js'))
    .filter((f) => f.split(path.sep).includes('restricted') === restricted)
    .sort()
    .map((f) => path.join(__dirname, f));
}

export async function run(): Promise<void> {
  const restricted = process.env['SPECWEAVE_TEST_TRUST'] === 'restricted';
  if (vscode.workspace.isTrusted === restricted) {
    throw new Error(`asked for a ${restricted ? 'restricted' : 'trusted'} workspace but workspace.isTrusted is ${vscode.workspace.isTrusted}`);
  }
  const grep = process.env['SPECWEAVE_TEST_GREP'];
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec', ...(grep ? { grep } : {}) });
  Mocha.reporters.Base.consoleLog = report;
  const files = testFiles(restricted);
  if (files.length === 0) throw new Error(`no test files for the ${restricted ? 'restricted' : 'trusted'} pass in ${__dirname}`);
  for (const f of files) mocha.addFile(f);
  await mocha.loadFilesAsync();

  const stats = await new Promise<{ passes: number; failures: number; pending: number }>((resolve) => {
    const runner = mocha.run(() => resolve({
      passes: runner.stats?.passes ?? 0, failures: runner.stats?.failures ?? 0, pending: runner.stats?.pending ?? 0,
    }));
  });
  report(`${stats.passes} passed, ${stats.failures} failed${stats.pending ? `, ${stats.pending} skipped` : ''}`);
  const results = process.env['SPECWEAVE_TEST_RESULTS'];
  if (results) writeFileSync(results, JSON.stringify(stats));
  if (stats.failures > 0 || stats.passes === 0) throw new Error(`${stats.failures} of ${stats.passes + stats.failures} tests failed`);
}
