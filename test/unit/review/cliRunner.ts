// Runs CLI commands in sequence in this process and prints [{code, out, err}] as JSON: the CLI tests spawn it once
// per test, because capturing stdout inside the test runner's own process would swallow its report.
import { commands } from '../../../src/cli/commands';

async function main(): Promise<void> {
  const batches = JSON.parse(process.argv[2] as string) as string[][];
  const results: Array<{ code: number; out: string; err: string }> = [];
  const ow = process.stdout.write.bind(process.stdout);
  const ew = process.stderr.write.bind(process.stderr);
  for (const argv of batches) {
    const [name, ...rest] = argv;
    const cmd = commands.find((c) => c.name === name);
    let out = '';
    let err = '';
    process.stdout.write = ((s: string) => ((out += s), true)) as typeof process.stdout.write;
    process.stderr.write = ((s: string) => ((err += s), true)) as typeof process.stderr.write;
    let code: number;
    try {
      code = cmd ? await cmd.run(rest) : 127;
    } catch (e) {
      err += String(e instanceof Error ? e.stack : e);
      code = 3;
    } finally {
      process.stdout.write = ow;
      process.stderr.write = ew;
    }
    results.push({ code, out, err });
  }
  ow(JSON.stringify(results));
}

void main();
