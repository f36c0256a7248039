// A child process for the durability tests: appends label events to a review log and prints `ACK <id>` for each
// one after its append resolved (that is, after fsync). Some events carry a long note so their line spans several
// pages and a kill can land in the middle of writing it.
//   node appender.js LOG_FILE COUNT WRITER [START_AT_MS]   (COUNT 0 = until killed; START_AT_MS: wait until then,
//   so that several writers start appending at the same moment whatever their start-up times)
// APPENDER_IN_FLIGHT=N: N appends at once through the one log (each waits its turn behind the others' fsyncs).
import { randomInt } from 'node:crypto';
import { ReviewLog } from '../../../src/adapters/fs/reviewLog';

async function main(): Promise<void> {
  const [file, countText, writer, startAt] = process.argv.slice(2) as [string, string, string, string | undefined];
  const count = Number(countText);
  const log = new ReviewLog(file, { lockTimeoutMs: 30_000 });
  log.load();
  if (startAt !== undefined) await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
  let next = 0;
  const lane = async () => {
    for (let i = next++; count === 0 || i < count; i = next++) await appendOne(i);
  };
  const appendOne = async (i: number) => {
    const big = randomInt(0, 10) === 0;
    const [e] = await log.append([
      {
        kind: 'label',
        task: `t${i % 7}`,
        revision: 1,
        curator: writer,
        payload: { attempt: 'a1', spec: `S${i}`, verdict: 'satisfied', evidence: [], ...(big ? { note: 'n'.repeat(randomInt(5000, 9000)) } : {}) },
      },
    ]);
    process.stdout.write(`ACK ${e?.id}\n`);
  };
  await Promise.all(Array.from({ length: Math.max(1, Number(process.env.APPENDER_IN_FLIGHT ?? 1)) }, lane));
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
