// `npm run test:vscode`: runs the in-host suite through @vscode/test-electron's runTests, with the code-server
// launcher standing in for desktop VS Code, once in a trusted and once in a restricted (untrusted) workspace.
//
// Flags: --pass trusted|restricted (one pass only), --grep TEXT (mocha grep).
// Environment: SPECWEAVE_TEST_WORKSPACE (folder to open; default a fresh empty folder per pass).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { runTests } from '@vscode/test-electron';
import { buildSuite, suiteIndex } from './build';
import { assertToolsInstalled, projectRoot } from './harness/codeServer';

type Pass = 'trusted' | 'restricted';

interface PassResult { pass: Pass; passes: number; failures: number; seconds: number; exitCode: number }

const launcher = path.join(projectRoot, 'test/vscode/launcher.sh');
const outputRoot = path.join(projectRoot, '.test-output/vscode');

async function runPass(pass: Pass, grep: string | undefined): Promise<PassResult> {
  const t0 = Date.now();
  const outDir = path.join(outputRoot, pass);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  // Profile dirs live under the system temp dir: code-server puts a unix socket in the user data dir, and a socket
  // path is limited to 107 bytes, which a deep checkout can exceed.
  const tmp = mkdtempSync(path.join(os.tmpdir(), `sw-vscode-${pass}-`));
  const workspace = path.join(tmp, 'workspace');
  const source = process.env['SPECWEAVE_TEST_WORKSPACE'];
  // A copy: tests may write into the workspace, and a dataset in the repository must stay as committed.
  if (source) cpSync(path.resolve(source), workspace, { recursive: true });
  else mkdirSync(workspace);
  const resultsFile = path.join(outDir, 'results.json');
  let exitCode = 0;
  try {
    console.log(`\n== in-host suite, ${pass} workspace ==`);
    exitCode = await runTests({
      vscodeExecutablePath: launcher,
      extensionDevelopmentPath: projectRoot,
      extensionTestsPath: suiteIndex,
      launchArgs: [workspace, `--user-data-dir=${path.join(tmp, 'ud')}`, `--extensions-dir=${path.join(tmp, 'ext')}`],
      extensionTestsEnv: {
        SPECWEAVE_TEST_TRUST: pass,
        SPECWEAVE_TEST_OUTPUT_DIR: outDir,
        SPECWEAVE_TEST_RESULTS: resultsFile,
        ...(grep ? { SPECWEAVE_TEST_GREP: grep } : {}),
      },
    });
  } catch (e) {
    exitCode = typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'number' ? e.code : 1;
    console.error(`in-host suite (${pass}) failed: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  let passes = 0;
  let failures = 0;
  if (existsSync(resultsFile)) {
    const r = JSON.parse(readFileSync(resultsFile, 'utf8')) as { passes: number; failures: number };
    passes = r.passes;
    failures = r.failures;
  }
  // A run that died before reporting counts as one failure, so the closing line can never read as green.
  if (exitCode !== 0 && failures === 0) failures = 1;
  return { pass, passes, failures, seconds: (Date.now() - t0) / 1000, exitCode };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { pass: { type: 'string' }, grep: { type: 'string' } } });
  const passes: Pass[] = values.pass === 'trusted' || values.pass === 'restricted' ? [values.pass] : ['trusted', 'restricted'];
  if (values.pass !== undefined && passes.length !== 1) throw new Error(`--pass must be trusted or restricted, not ${values.pass}`);
  assertToolsInstalled();
  if (!existsSync(path.join(projectRoot, 'dist/extension.js'))) throw new Error('dist/extension.js missing: run `npm run build` first');
  await buildSuite();
  const results: PassResult[] = [];
  for (const pass of passes) results.push(await runPass(pass, values.grep));
  console.log('');
  for (const r of results) {
    console.log(`in-host ${r.pass}: ${r.passes} passed, ${r.failures} failed in ${r.seconds.toFixed(1)} s`);
  }
  const passed = results.reduce((n, r) => n + r.passes, 0);
  const failed = results.reduce((n, r) => n + r.failures, 0);
  console.log(`${passed} passed, ${failed} failed`);
  return failed > 0 || passed === 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
