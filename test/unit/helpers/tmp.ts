// Temporary folders for tests, removed when the process exits.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const made: string[] = [];
process.on('exit', () => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

export function tmpDir(prefix = 'sw-test-'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(d);
  return d;
}

/** Copies a fixture folder under test/fixtures into a fresh temporary folder and returns its path. */
export function copyFixture(rel: string): string {
  const src = path.resolve(__dirname, '../../fixtures', rel);
  const dest = path.join(tmpDir(), path.basename(rel));
  fs.cpSync(src, dest, { recursive: true });
  return dest;
}

/** Every file under `dir` with its mtime and content hash, to prove that reading changed nothing. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = fs.lstatSync(p);
        out.set(path.relative(dir, p), `${st.mtimeMs}:${st.size}:${e.isSymbolicLink() ? fs.readlinkSync(p) : fs.readFileSync(p).toString('base64')}`);
      }
    }
  };
  walk(dir);
  return out;
}
