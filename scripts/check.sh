#!/usr/bin/env bash
# npm run check: the type checks (extension and webview) beside eslint, on two cores about 20 s less than one after
# the other. Each part's output is printed whole, the type checks' first; fails when either part failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
types=$(mktemp)
trap 'rm -f "$types"' EXIT
(npx tsc -p tsconfig.json --noEmit && npx tsc -p webview/tsconfig.json --noEmit) > "$types" 2>&1 &
pid=$!
lint=$(npx eslint . 2>&1); rc_lint=$?
rc_types=0
wait "$pid" || rc_types=$?
cat "$types"
[ -n "$lint" ] && printf '%s\n' "$lint"
((rc_types == 0 && rc_lint == 0))
