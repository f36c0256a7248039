#!/usr/bin/env bash
# Prepares a fresh machine (Debian bookworm, npm registry and Debian apt only) for building and testing:
# the project's npm dependencies, a Docker engine with the offline base image, and code-server, Node 24 and chromium.
# Idempotent and quick when everything is already there.
#
# Usage: bash scripts/setup.sh [--no-npm] [--no-docker] [--docker-optional] [--no-vscode] [--no-apt]
#   --no-npm            skip `npm ci`
#   --no-docker         skip scripts/setup-docker.sh
#   --docker-optional   run it, but only warn when no engine can be had (the extension opens without one)
#   --no-vscode         skip scripts/setup-vscode.sh (code-server, Node 24, chromium)
#   --no-apt            passed on to setup-vscode.sh: install nothing with apt-get
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

WITH_NPM=1 WITH_DOCKER=1 DOCKER_OPTIONAL=0 WITH_VSCODE=1
VSCODE_FLAGS=()
for arg in "$@"; do
  case "$arg" in
    --no-npm) WITH_NPM=0 ;;
    --no-docker) WITH_DOCKER=0 ;;
    --docker-optional) DOCKER_OPTIONAL=1 ;;
    --no-vscode) WITH_VSCODE=0 ;;
    --no-apt) VSCODE_FLAGS+=(--no-apt) ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "setup: unknown flag $arg" >&2; exit 2 ;;
  esac
done

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }
T_ALL=$(now)

# code-server's install (about 2.5 minutes, mostly npm and a native build) runs beside npm ci and the Docker setup
# (the debootstrap of the base image): one apt step first, so that no two apt-get ever wait on each other's lock.
VSCODE_PID=""
if ((WITH_VSCODE)); then
  if [[ " ${VSCODE_FLAGS[*]} " != *" --no-apt "* ]]; then bash scripts/setup-vscode.sh --apt-only; fi
  bash scripts/setup-vscode.sh --no-apt &
  VSCODE_PID=$!
fi
# The background step is stopped with this script (Ctrl-C, or a failed step below).
trap '[ -n "$VSCODE_PID" ] && kill "$VSCODE_PID" 2>/dev/null; true' EXIT

if ((WITH_NPM)); then
  T=$(now)
  # npm writes node_modules/.package-lock.json on every install: older than the lockfile means stale.
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "setup: npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
  echo "setup: npm dependencies ok ($(since "$T"))"
fi

if ((WITH_DOCKER)); then
  T=$(now)
  if [ -f scripts/setup-docker.sh ]; then
    if ! bash scripts/setup-docker.sh; then
      if ((DOCKER_OPTIONAL)); then
        # Say which part failed: an engine that answers with no base image is not "no engine".
        if PATH="$PATH:/usr/sbin:/sbin" docker info >/dev/null 2>&1; then
          echo "setup: WARNING: the Docker engine answers, but the base image ${SPECWEAVE_BASE_IMAGE:-specweave-base:bookworm} could not be made (the error is above; run bash scripts/setup-docker.sh again once it is fixed); browsing works, running verifiers will not" >&2
        else
          echo "setup: WARNING: no Docker engine answers (the error is above); browsing works, running verifiers will not" >&2
        fi
      else
        echo "setup: scripts/setup-docker.sh failed" >&2
        exit 1
      fi
    fi
  else
    echo "setup: no scripts/setup-docker.sh yet; skipping Docker"
  fi
  echo "setup: docker step done ($(since "$T"))"
fi

if [ -n "$VSCODE_PID" ]; then
  rc=0
  wait "$VSCODE_PID" || rc=$?
  VSCODE_PID=""
  if ((rc != 0)); then
    echo "setup: scripts/setup-vscode.sh failed (exit $rc)" >&2
    exit 1
  fi
fi

echo "setup: done ($(since "$T_ALL"))"
