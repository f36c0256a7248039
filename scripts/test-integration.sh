#!/usr/bin/env bash
# The integration layer (npm run test:integration): test/integration in two runs side by side, one file at a time in
# each. The cluster files (test/integration/cluster: engines of their own in network namespaces, mostly waiting on
# engine starts and on a swarm noticing a lost node) run beside all the others, which use the host's engine; the
# cluster files never touch the host's engine, so the two runs cannot see each other's containers. The other run's
# report streams; the cluster run's follows it, then one count for both ("ℹ pass N", "ℹ fail N", what
# scripts/test.sh reads). The exit status is non-zero when either run failed.
#
# Usage: bash scripts/test-integration.sh
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="$ROOT/.test-output"
mkdir -p "$OUT"

mapfile -t cluster < <(find test/integration/cluster -name '*.test.ts' 2>/dev/null | sort)
mapfile -t host < <(find test/integration -name '*.test.ts' -not -path 'test/integration/cluster/*' | sort)
run() { node --import tsx --test --test-concurrency=1 --test-reporter=spec "$@"; }

CLUSTER_PID=""
trap '[ -n "$CLUSTER_PID" ] && kill "$CLUSTER_PID" 2>/dev/null; true' EXIT
if ((${#cluster[@]})); then
  run "${cluster[@]}" > "$OUT/integration-cluster.log" 2>&1 &
  CLUSTER_PID=$!
fi
rc_host=0
if ((${#host[@]})); then
  run "${host[@]}" 2>&1 | tee "$OUT/integration-host.log"
  rc_host=${PIPESTATUS[0]}
fi
rc_cluster=0
if [ -n "$CLUSTER_PID" ]; then
  wait "$CLUSTER_PID" || rc_cluster=$?
  CLUSTER_PID=""
  echo
  echo "=== test/integration/cluster (ran beside the files above) ==="
  cat "$OUT/integration-cluster.log"
fi

count() { grep -ahE "^ℹ $1 [0-9]+$" "${@:2}" 2>/dev/null | awk '{ n += $3 } END { print n + 0 }'; }
logs=()
((${#host[@]})) && logs+=("$OUT/integration-host.log")
((${#cluster[@]})) && logs+=("$OUT/integration-cluster.log")
echo
echo "=== integration: both runs ==="
echo "ℹ pass $(count pass "${logs[@]}")"
echo "ℹ fail $(count fail "${logs[@]}")"
((rc_host == 0 && rc_cluster == 0))
