// The CLI as a curator runs it, in a child process: its exit code and what it printed.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { cliArgs } from '../../unit/helpers/cli';

const PROJECT = path.resolve(__dirname, '../../..');

/** Runs `specweave ARGS` with `env` added to this process's environment. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [...cliArgs(), ...args], { cwd: PROJECT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
