// What the cluster tests share: running scripts/cluster-up.sh and cluster-down.sh under a name of the test's own, and
// reading a container's or service's multiplexed log stream.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');

/** Runs `scripts/<name>` with `--name cluster` and the arguments; resolves with its stdout. */
export function clusterScript(cluster: string): (name: 'cluster-up.sh' | 'cluster-down.sh', ...args: string[]) => Promise<string> {
  return async (name, ...args) => (await run('bash', [path.join(ROOT, 'scripts', name), '--name', cluster, ...args], { maxBuffer: 16 * 1024 * 1024 })).stdout;
}

/** A log stream's text without its 8-byte frame headers. */
export function demux(buf: Buffer): string {
  let out = '';
  let i = 0;
  while (i + 8 <= buf.length) {
    const len = buf.readUInt32BE(i + 4);
    out += buf.subarray(i + 8, i + 8 + len).toString('utf8');
    i += 8 + len;
  }
  return out;
}
