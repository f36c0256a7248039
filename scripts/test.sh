#!/usr/bin/env bash
# THE test command (README, CI): every layer in order, then a summary with each layer's pass/fail counts and
# duration and every failed test of every layer; the exit status is non-zero when any layer failed. A layer runs
# even after an earlier one failed, unless it needs what failed (e2e needs the package; every layer needs setup). Logs of each layer go to .test-output/<layer>.log; screenshots of the UI
# tests to .test-output/e2e/<test>/.
#
# Layers: setup, check, build, unit, webview (the task view in Chromium), integration (real Docker),
#         vscode (inside a real extension host),
#         package (.vsix), e2e (the .vsix clicked in a real workbench).
#
# The webview layer runs beside the integration layer (its report follows the integration layer's; its summary line
# stays in its place).
#
# Usage: bash scripts/test.sh [--no-setup] [--only LAYER[,LAYER...]] [--fail-fast]
#   --no-setup     do not run scripts/setup.sh (everything already installed)
#   --only         run just these layers (in the order above)
#   --fail-fast    stop at the first failing layer (the later ones read "not run")
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="$ROOT/.test-output"
mkdir -p "$OUT"

ALL_LAYERS=(setup check build unit webview integration vscode package e2e)
ONLY=""
KEEP_GOING=1
NO_SETUP=0
while (($#)); do
  case "$1" in
    --no-setup) NO_SETUP=1 ;;
    --only) ONLY=",${2:?--only needs a list},"; shift ;;
    --only=*) ONLY=",${1#--only=},"; ;;
    --keep-going) KEEP_GOING=1 ;;
    --fail-fast) KEEP_GOING=0 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown flag $1" >&2; exit 2 ;;
  esac
  shift
done

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

SUMMARY=()
TOTAL_PASSED=0
TOTAL_FAILED=0
FAILED_LAYER=""
FAILED_LAYERS=()

wanted() {
  local layer="$1"
  if [ -n "$ONLY" ]; then [[ "$ONLY" == *",$layer,"* ]]; return; fi
  if [ "$layer" = setup ] && ((NO_SETUP)); then return 1; fi
  return 0
}

# Counts from a log: node's test runner ends with "ℹ pass N" / "ℹ fail N"; the in-host suite with "N passed, N failed".
counts() {
  local log="$1" p f
  p=$(grep -aE '^ℹ pass [0-9]+$' "$log" | tail -n1 | awk '{print $3}')
  f=$(grep -aE '^ℹ fail [0-9]+$' "$log" | tail -n1 | awk '{print $3}')
  if [ -z "$p" ]; then
    local line
    line=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
    if [ -n "$line" ]; then
      p=$(echo "$line" | awk '{print $1}')
      f=$(echo "$line" | awk '{print $3}')
    fi
  fi
  if [ -n "$p" ]; then echo "$p ${f:-0}"; fi
}

# run_layer NAME COMMAND...: streams the output, keeps it in .test-output/NAME.log, records the summary line.
# needs_failed NAME: the layer NAME cannot mean anything after the failure of a layer it depends on.
needs_failed() {
  local l
  for l in "${FAILED_LAYERS[@]}"; do
    case "$l:$1" in
      setup:*|package:e2e) echo "$l"; return 0 ;;
    esac
  done
  return 1
}

# A layer started with run_layer_beside runs in the background (its log only) while the next layers run; join_layer
# waits for it, prints its log and fills its summary line in its place.
declare -A BESIDE_PID BESIDE_T BESIDE_SLOT

run_layer() {
  if ! layer_may_run "$1"; then return 0; fi
  local name="$1"; shift
  local log="$OUT/$name.log" t rc
  echo
  echo "=== $name: $* ==="
  t=$(now)
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  record_layer "$name" "$rc" "$t"
}

run_layer_beside() {
  if ! layer_may_run "$1"; then return 0; fi
  local name="$1"; shift
  echo
  echo "=== $name: $* (beside the next layers; its report follows theirs) ==="
  BESIDE_T[$name]=$(now)
  BESIDE_SLOT[$name]=${#SUMMARY[@]}
  SUMMARY+=("$(printf '%-12s %-7s' "$name" 'running')")
  rm -f "$OUT/$name.end"
  set -m # a process group of its own: stopped whole with this script
  # Its end time is written when it ends, so that its summary line gives its own duration, not the time until joined.
  ( "$@" > "$OUT/$name.log" 2>&1; rc=$?; now > "$OUT/$name.end"; exit "$rc" ) &
  BESIDE_PID[$name]=$!
  set +m
}

join_layer() {
  local name="$1" rc=0
  [ -n "${BESIDE_PID[$name]:-}" ] || return 0
  wait "${BESIDE_PID[$name]}" || rc=$?
  unset "BESIDE_PID[$name]"
  echo
  echo "=== $name (ran beside the layers above) ==="
  cat "$OUT/$name.log"
  record_layer "$name" "$rc" "${BESIDE_T[$name]}" "${BESIDE_SLOT[$name]}" "$(cat "$OUT/$name.end" 2>/dev/null)"
}

# layer_may_run NAME: false (with its summary line) when the layer is not run: fail-fast, a failed dependency, --only.
layer_may_run() {
  local name="$1"
  if [ -n "$FAILED_LAYER" ] && ((KEEP_GOING == 0)); then
    SUMMARY+=("$(printf '%-12s %-7s' "$name" 'not run')")
    return 1
  fi
  local dep
  if dep=$(needs_failed "$name"); then
    SUMMARY+=("$(printf '%-12s %-7s' "$name" 'not run') (needs $dep, which failed)")
    return 1
  fi
  if ! wanted "$name"; then
    SUMMARY+=("$(printf '%-12s %-7s' "$name" 'skipped')")
    return 1
  fi
  return 0
}

# record_layer NAME RC START [SLOT [END]]: the layer's summary line (at SLOT when given; its time up to END when given,
# else up to now), its counts added to the totals.
record_layer() {
  local name="$1" rc="$2" t="$3" slot="${4:-}" end="${5:-}" log="$OUT/$1.log" c detail=""
  c=$(counts "$log")
  if [ -n "$c" ]; then
    local p=${c% *} f=${c#* }
    TOTAL_PASSED=$((TOTAL_PASSED + p))
    TOTAL_FAILED=$((TOTAL_FAILED + f))
    detail="$p passed, $f failed"
    # A runner that exits 0 having run nothing has tested nothing.
    if ((rc == 0 && p == 0 && f == 0)); then rc=1; detail="$detail (no test ran)"; fi
  fi
  if [ "$name" = package ] && [ -f dist-pkg/specweave-curator.vsix ]; then
    detail="dist-pkg/specweave-curator.vsix $(awk -v b="$(stat -c %s dist-pkg/specweave-curator.vsix)" 'BEGIN { printf "%.1f", b / 1024 }') KB"
  fi
  local status=pass
  if ((rc != 0)); then status=FAIL; FAILED_LAYER="${FAILED_LAYER:-$name}"; FAILED_LAYERS+=("$name"); fi
  local line
  local took
  if [ -n "$end" ]; then took=$(awk -v a="$t" -v b="$end" 'BEGIN { printf "%.1f", b - a }'); else took=$(secs "$t"); fi
  line="$(printf '%-12s %-7s %7ss  %s' "$name" "$status" "$took" "$detail")"
  if [ -n "$slot" ]; then SUMMARY[slot]="$line"; else SUMMARY+=("$line"); fi
}

# A layer whose folder holds no test file yet is reported, not run: `node --test` with no file would search the
# whole project for tests.
has_tests() { [ -n "$(find "$1" -name '*.test.ts' -print -quit 2>/dev/null)" ]; }
run_node_tests() {
  local name="$1" dir="$2" script="$3" how="${4:-run_layer}"
  if has_tests "$dir" || ! wanted "$name"; then
    "$how" "$name" npm run -s "$script"
  elif [ -z "$FAILED_LAYER" ] || ((KEEP_GOING)); then
    SUMMARY+=("$(printf '%-12s %-7s' "$name" 'empty') (no $dir/**/*.test.ts)")
  else
    SUMMARY+=("$(printf '%-12s %-7s' "$name" 'not run')")
  fi
}

trap 'for p in "${BESIDE_PID[@]}"; do kill -- "-$p" 2>/dev/null; done; true' EXIT
T_ALL=$(now)
run_layer setup bash scripts/setup.sh
run_layer check npm run -s check
run_layer build npm run -s build
run_node_tests unit test/unit test:unit
# The webview layer (Chromium and the page's own host, no container engine) runs beside the integration layer, which
# spends much of its time waiting on containers and cluster engines: about 2.5 minutes less in all.
run_node_tests webview test/webview test:webview run_layer_beside
run_node_tests integration test/integration test:integration
join_layer webview
run_layer vscode node --import tsx test/vscode/runTest.ts
run_layer package npm run -s package
run_node_tests e2e test/e2e test:e2e

echo
echo "=== summary ($(secs "$T_ALL")s; logs in .test-output/) ==="
for line in "${SUMMARY[@]}"; do echo "$line"; done
# Which tests failed, and the first line of why: CI shows only the last lines of a run.
for layer in "${FAILED_LAYERS[@]}"; do
  echo "failed in $layer:"
  node "$ROOT/scripts/failures.mjs" "$OUT/$layer.log" || true
done
if [ -n "$FAILED_LAYER" ]; then
  echo "FAILED layers: ${FAILED_LAYERS[*]} (logs: .test-output/<layer>.log)"
fi
echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
[ -z "$FAILED_LAYER" ]
