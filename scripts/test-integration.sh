#!/usr/bin/env bash
# The integration layer (npm run test:integration): test/integration in runs side by side, one file at a time in
# each run, so that no two files of one run ever see each other:
#   - the host run: every file that uses the host's Docker engine (the default for a new file);
#   - beside it, one after the other: the cluster files (test/integration/cluster: engines of their own in network
#     namespaces, mostly waiting on engine starts and on a swarm noticing a lost node; they never touch the host's
#     engine), then the engine-free files listed below, run with DOCKER_HOST pointing at no engine: the CLIs they
#     spawn can then never sweep the host engine's containers under the host run's feet, and a file listed here
#     that needs an engine fails loudly instead of passing by luck.
# The host run's report streams; the others follow it, then one count for all ("ℹ pass N", "ℹ fail N", what
# scripts/test.sh reads). The exit status is non-zero when any run failed.
#
# Usage: bash scripts/test-integration.sh
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="$ROOT/.test-output"
mkdir -p "$OUT"

# Files and folders of test/integration that need no container engine (their CLIs run with no engine reachable).
ENGINE_FREE=(
  test/integration/curation
  test/integration/fs/structure.test.ts
  test/integration/fs/symlinks.test.ts
  test/integration/repair/client.test.ts
  test/integration/repair/flow.test.ts
  test/integration/repair/hostDecisions.test.ts
  test/integration/repair/terminal.test.ts
  test/integration/review
  test/integration/solver/toolCalls.test.ts
  test/integration/specs
)
NO_ENGINE="unix:///nonexistent/specweave-engine-free-tests.sock"

all=$(find test/integration -name '*.test.ts' | sort)
mapfile -t cluster < <(grep '^test/integration/cluster/' <<<"$all")
free_paths=$(for p in "${ENGINE_FREE[@]}"; do if [ -d "$p" ]; then find "$p" -name '*.test.ts'; elif [ -f "$p" ]; then echo "$p"; fi; done | sort -u)
mapfile -t free < <(grep -Fxf <(printf '%s\n' "$free_paths") <<<"$all")
mapfile -t host < <(grep -v '^test/integration/cluster/' <<<"$all" | grep -vFxf <(printf '%s\n' "$free_paths" ""))
run() { node --import tsx --test --test-concurrency=1 --test-reporter=spec "$@"; }

BESIDE_PID=""
trap '[ -n "$BESIDE_PID" ] && kill -- "-$BESIDE_PID" 2>/dev/null; true' EXIT
: > "$OUT/integration-cluster.log"
: > "$OUT/integration-free.log"
set -m # the runs beside get a process group of their own, stopped with this script
(
  rc=0
  if ((${#cluster[@]})); then run "${cluster[@]}" > "$OUT/integration-cluster.log" 2>&1 || rc=1; fi
  if ((${#free[@]})); then DOCKER_HOST="$NO_ENGINE" run "${free[@]}" > "$OUT/integration-free.log" 2>&1 || rc=1; fi
  exit "$rc"
) &
BESIDE_PID=$!
set +m
rc_host=0
: > "$OUT/integration-host.log"
if ((${#host[@]})) && [ -n "${host[0]}" ]; then
  run "${host[@]}" 2>&1 | tee "$OUT/integration-host.log"
  rc_host=${PIPESTATUS[0]}
fi
rc_beside=0
wait "$BESIDE_PID" || rc_beside=$?
BESIDE_PID=""
if ((${#cluster[@]})); then
  echo
  echo "=== test/integration/cluster (ran beside the host run) ==="
  cat "$OUT/integration-cluster.log"
fi
if ((${#free[@]})); then
  echo
  echo "=== engine-free files, DOCKER_HOST=$NO_ENGINE (ran beside the host run, after the cluster files) ==="
  cat "$OUT/integration-free.log"
fi

count() { grep -ahE "^ℹ $1 [0-9]+$" "${@:2}" 2>/dev/null | awk '{ n += $3 } END { print n + 0 }'; }
logs=("$OUT/integration-host.log" "$OUT/integration-cluster.log" "$OUT/integration-free.log")
echo
echo "=== integration: every run ==="
echo "ℹ pass $(count pass "${logs[@]}")"
echo "ℹ fail $(count fail "${logs[@]}")"
((rc_host == 0 && rc_beside == 0))
