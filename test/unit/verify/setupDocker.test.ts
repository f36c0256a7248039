// scripts/setup-docker.sh run twice at once, with stubs for docker, dockerd, debootstrap and sudo: the second run
// must wait for the first instead of deleting its half-built rootfs, then find the image the first one built.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

const SCRIPT = path.resolve(__dirname, '../../../scripts/setup-docker.sh');

// The fake engine keeps its images as files under $STATE/images.
const DOCKER_STUB = `#!/bin/sh
set -e
img() { printf '%s' "$1" | tr -c 'a-zA-Z0-9._-' '_'; }
case "$1" in
  info|version) exit 0 ;;
  image)
    # image inspect [--format F] NAME
    eval "name=\\\${$#}"
    [ -f "$STATE/images/$(img "$name")" ] || exit 1
    echo "sha256:stub-$(img "$name")"
    exit 0 ;;
  import)
    cat >/dev/null
    mkdir -p "$STATE/images"; touch "$STATE/images/$(img "$3")"; exit 0 ;;
  build)
    # build -q -t IMAGE CTX
    mkdir -p "$STATE/images"; touch "$STATE/images/$(img "$4")"; echo built; exit 0 ;;
esac
echo "docker stub: unexpected $*" >&2
exit 2
`;

// debootstrap --variant=minbase --include=... bookworm ROOTFS MIRROR: marks the rootfs as its own, says it started,
// waits for the test's go, then checks nobody replaced or deleted the tree under it.
const DEBOOTSTRAP_STUB = `#!/bin/sh
rootfs="$4"
mkdir -p "$rootfs"
echo "$$" > "$rootfs/owner"
echo "$$" >> "$STATE/debootstrap.runs"
n=0
while [ ! -f "$STATE/go" ]; do
  n=$((n + 1)); [ "$n" -lt 600 ] || { echo "debootstrap stub: no go within 30 s" >&2; exit 1; }
  sleep 0.05
done
if [ "$(cat "$rootfs/owner" 2>/dev/null)" != "$$" ]; then echo "debootstrap stub: my rootfs was deleted or replaced" >&2; exit 1; fi
mkdir -p "$rootfs/var/cache/apt/archives" "$rootfs/var/lib/apt/lists"
`;

interface Run {
  out: string;
  code: number | null | undefined;
  done: Promise<number | null>;
}

function start(env: NodeJS.ProcessEnv): Run {
  const p = spawn('bash', [SCRIPT], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const r: Run = { out: '', code: undefined, done: Promise.resolve(null) };
  p.stdout.on('data', (d: Buffer) => (r.out += d.toString()));
  p.stderr.on('data', (d: Buffer) => (r.out += d.toString()));
  r.done = new Promise((resolve) => p.on('close', (code) => resolve((r.code = code))));
  return r;
}

async function until(what: string, cond: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('setup-docker.sh run twice at once: the second waits for the first, keeps its rootfs, then finds the image', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-setup-docker-'));
  try {
    const bin = path.join(dir, 'bin');
    const state = path.join(dir, 'state');
    fs.mkdirSync(bin);
    fs.mkdirSync(state);
    fs.writeFileSync(path.join(bin, 'docker'), DOCKER_STUB, { mode: 0o755 });
    fs.writeFileSync(path.join(bin, 'debootstrap'), DEBOOTSTRAP_STUB, { mode: 0o755 });
    fs.writeFileSync(path.join(bin, 'dockerd'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    fs.writeFileSync(path.join(bin, 'sudo'), '#!/bin/sh\nexec "$@"\n', { mode: 0o755 });
    const env = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      STATE: state,
      SPECWEAVE_BASE_IMAGE: 'stub-base:test',
      SPECWEAVE_ROOTFS_DIR: path.join(dir, 'rootfs'),
      DOCKERD_LOG: path.join(dir, 'dockerd.log'),
      DOCKER_HOST: '',
    };
    const runs = () => (fs.existsSync(path.join(state, 'debootstrap.runs')) ? fs.readFileSync(path.join(state, 'debootstrap.runs'), 'utf8').trim().split('\n') : []);
    const owner = path.join(dir, 'rootfs', 'bookworm', 'owner');

    const first = start(env);
    await until('the first run to start debootstrap', () => runs().length === 1 || first.code !== undefined);
    assert.equal(first.code, undefined, `the first run ended early:\n${first.out}`);
    const second = start(env);
    // Either the second run waits for the lock (fixed), or it deleted the rootfs / started its own debootstrap.
    await until(
      'the second run to wait for the lock or to touch the rootfs',
      () => /waiting for another setup-docker\.sh/.test(second.out) || runs().length > 1 || !fs.existsSync(owner) || second.code !== undefined,
    );
    fs.writeFileSync(path.join(state, 'go'), '');
    const [a, b] = [await first.done, await second.done];

    assert.equal(runs().length, 1, `debootstrap ran once, not once per run:\n--- first\n${first.out}\n--- second\n${second.out}`);
    assert.equal(a, 0, `the first run's rootfs survived and its build finished:\n${first.out}`);
    assert.equal(b, 0, `the second run finished:\n${second.out}`);
    assert.match(second.out, /waiting for another setup-docker\.sh to finish/);
    assert.match(second.out, /present: sha256:stub-stub-base_test/, 'the second run found the image the first one built');
    assert.match(first.out, /docker build stub-base:test/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
