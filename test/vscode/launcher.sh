#!/usr/bin/env bash
# Executable stand-in for desktop VS Code, for runTests({ vscodeExecutablePath }); see launcher.ts.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
exec node --import "$ROOT/node_modules/tsx/dist/loader.mjs" "$ROOT/test/vscode/launcher.ts" "$@"
