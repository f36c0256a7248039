// `specweave verify ... --json --force` run in this process, as the backend tests run it: the exit code, the run
// lines it printed (parsed) and what it said on stderr.
import { setOutput } from '../../src/cli/output';
import { runCli } from '../../src/cli/run';

export interface RunLine {
  attemptId: string;
  status: string;
  reason: string;
  backend: string;
  node: string;
}

export async function verifyCli(args: string[]): Promise<{ code: number; runs: RunLine[]; stderr: string }> {
  let stdout = '';
  let stderr = '';
  setOutput({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  let code: number;
  try {
    code = await runCli(['verify', ...args, '--json', '--force']);
  } finally {
    setOutput(undefined);
  }
  const runs = stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as RunLine);
  return { code, runs, stderr };
}
