#!/usr/bin/env bash
# The main job: builds the extension and opens it on the example dataset.
#   - desktop VS Code when `code` is on PATH: code --extensionDevelopmentPath=<this repo> <dataset>
#   - otherwise code-server in the browser, with the freshly packaged .vsix installed: prints the URL and serves
#     until Ctrl-C.
# Works on a fresh machine: installs what it needs first (Docker is optional: without an engine it only warns).
#
# Usage: bash scripts/open-example.sh [--browser] [--no-setup] [DATASET]
#   --browser    use code-server even when `code` is on PATH
#   --no-setup   skip scripts/setup.sh
#   DATASET      folder to open (default: the examples/ folder holding a specweave.json)
# Environment: PORT (code-server's port; default a free one), HOST (default 127.0.0.1).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

BROWSER=0
SETUP=1
DATASET=""
for arg in "$@"; do
  case "$arg" in
    --browser) BROWSER=1 ;;
    --no-setup) SETUP=0 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "open-example: unknown flag $arg" >&2; exit 2 ;;
    *) DATASET="$arg" ;;
  esac
done
DESKTOP=0
if ((BROWSER == 0)) && command -v code >/dev/null 2>&1; then DESKTOP=1; fi

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }
T_ALL=$(now)

if ((SETUP)); then
  if ((DESKTOP)); then
    bash scripts/setup.sh --docker-optional --no-vscode
  else
    bash scripts/setup.sh --docker-optional
  fi
fi

T=$(now)
npm run -s build
echo "open-example: extension built ($(since "$T"))"

# The example's git repositories are built from plain files by a script (no network, deterministic commits).
for script in examples/build.sh examples/build-repos.sh; do
  if [ -f "$script" ]; then
    T=$(now)
    sh "$script"
    echo "open-example: $script done ($(since "$T"))"
    break
  fi
done

if [ -z "$DATASET" ]; then
  for manifest in examples/*/specweave.json; do
    [ -f "$manifest" ] && { DATASET="$(dirname "$manifest")"; break; }
  done
fi
if [ -z "$DATASET" ] || [ ! -d "$DATASET" ]; then
  echo "open-example: no example dataset found (a folder under examples/ holding specweave.json)" >&2
  exit 1
fi
DATASET="$(cd "$DATASET" && pwd)"

if ((DESKTOP)); then
  echo "open-example: opening $DATASET in VS Code with the extension from $ROOT ($(since "$T_ALL") to get here)"
  exec code --extensionDevelopmentPath="$ROOT" "$DATASET"
fi

T=$(now)
npm run -s package >/dev/null
VSIX="$ROOT/dist-pkg/specweave-curator.vsix"
echo "open-example: packaged $VSIX ($(since "$T"))"

NODE24="$ROOT/.tools/node24/bin/node"
CS_ENTRY="$ROOT/.tools/code-server/node_modules/code-server/out/node/entry.js"
HOST="${HOST:-127.0.0.1}"
if [ -z "${PORT:-}" ]; then
  PORT=$(node -e "const s=require('net').createServer().listen(0,'$HOST',()=>{console.log(s.address().port);s.close()})")
fi
# A fresh profile per run under the temp dir: no state from an earlier run, and a short path for code-server's socket.
PROFILE="$(mktemp -d "${TMPDIR:-/tmp}/specweave-example-XXXXXX")"
mkdir -p "$PROFILE/ud/User" "$ROOT/.test-output"
LOG="$ROOT/.test-output/open-example-code-server.log"
printf 'auth: none\ncert: false\n' > "$PROFILE/config.yaml"
cat > "$PROFILE/ud/User/settings.json" <<'JSON'
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "specweave.candidates.revealOnStartup": true
}
JSON
CS_ARGS=(--config "$PROFILE/config.yaml" --auth none --user-data-dir "$PROFILE/ud" --extensions-dir "$PROFILE/ext"
  --disable-telemetry --disable-update-check --disable-workspace-trust)
env -u VSCODE_IPC_HOOK_CLI "$NODE24" "$CS_ENTRY" "${CS_ARGS[@]}" --install-extension "$VSIX" --force > "$LOG" 2>&1

# setsid: its own process group, so Ctrl-C ends code-server with its extension host and watchers.
setsid env -u VSCODE_IPC_HOOK_CLI "$NODE24" "$CS_ENTRY" "${CS_ARGS[@]}" --bind-addr "$HOST:$PORT" \
  --ignore-last-opened "$DATASET" >> "$LOG" 2>&1 &
CS_PID=$!
stop() {
  trap - INT TERM EXIT
  kill -TERM -- "-$CS_PID" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$CS_PID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$CS_PID" 2>/dev/null || true
  rm -rf "$PROFILE"
}
trap 'echo; echo "open-example: stopping code-server"; stop; exit 0' INT TERM
trap stop EXIT

URL="http://$HOST:$PORT/?folder=$(node -e 'process.stdout.write(encodeURIComponent(process.argv[1]))' "$DATASET")"
READY=0
for _ in $(seq 300); do
  if ! kill -0 "$CS_PID" 2>/dev/null; then
    echo "open-example: code-server exited; last lines of $LOG:" >&2
    tail -n 20 "$LOG" >&2
    exit 1
  fi
  if node -e "fetch('http://$HOST:$PORT/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; then
    READY=1
    break
  fi
  sleep 0.2
done
if ((READY == 0)); then
  echo "open-example: code-server did not answer on $HOST:$PORT; see $LOG" >&2
  exit 1
fi

echo
echo "  SpecWeave Curator on the example dataset ($(since "$T_ALL") to get here):"
echo
echo "    $URL"
echo
echo "  code-server log: $LOG"
echo "  Press Ctrl-C to stop."
wait "$CS_PID"
