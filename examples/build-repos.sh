#!/bin/sh
# Builds the example dataset's git repository, examples/repos/durations, from the plain files in
# examples/repo-src/durations as ONE deterministic commit (fixed author, committer, dates, file modes and message),
# so its sha is the same on every machine. Fails loudly unless that sha equals the baseCommit every task records.
# Idempotent: a repository already at the recorded commit with a clean work tree is left alone.
# Needs only POSIX sh and git; no network.
set -eu

HERE=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
NAME=durations
SRC="$HERE/repo-src/$NAME"
DEST="$HERE/repos/$NAME"

die() {
  echo "build-repos.sh: error: $*" >&2
  exit 1
}

command -v git >/dev/null 2>&1 || die "git is not installed"
[ -d "$SRC" ] || die "missing source folder $SRC"

# The commit every task of the dataset was written against.
expected=$(sed -n 's/.*"baseCommit"[[:space:]]*:[[:space:]]*"\([0-9a-f]\{40\}\)".*/\1/p' \
  "$HERE"/dataset/tasks/*/task.json | sort -u)
case "$expected" in
  '') die "no task under $HERE/dataset/tasks records a 40-hex baseCommit" ;;
  *[!0-9a-f]*) die "the tasks record different base commits: $(echo "$expected" | tr '\n' ' ')" ;;
esac

if [ -d "$DEST/.git" ] &&
  [ "$(git -C "$DEST" rev-parse -q --verify HEAD 2>/dev/null || true)" = "$expected" ] &&
  [ -z "$(git -C "$DEST" status --porcelain 2>/dev/null)" ]; then
  echo "ok: $DEST is at $expected (already built)"
  exit 0
fi

# No user or system git configuration may change the commit (hooks, signing, autocrlf, templates...).
GIT_CONFIG_NOSYSTEM=1
GIT_CONFIG_GLOBAL=/dev/null
GIT_AUTHOR_NAME='Durations Maintainers'
GIT_AUTHOR_EMAIL='maintainers@durations.example'
GIT_AUTHOR_DATE='2024-05-01T12:00:00+0000'
GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME
GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
export GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE \
  GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE 2>/dev/null || true

mkdir -p "$HERE/repos"
TMP="$HERE/repos/.$NAME.building.$$"
trap 'rm -rf "$TMP"' EXIT INT TERM
rm -rf "$TMP"
mkdir "$TMP"
cp -R "$SRC/." "$TMP/"
# Only the executable bit of a file reaches the commit; make it the same everywhere.
find "$TMP" -type f -exec chmod 644 {} +
G="git -C $TMP -c core.autocrlf=false -c core.safecrlf=false -c core.fileMode=true -c core.hooksPath=/dev/null -c commit.gpgSign=false -c init.templateDir="
$G init -q
$G symbolic-ref HEAD refs/heads/main
$G add -A
$G commit -q --no-verify -m "durations 0.1.0: parse and format durations, sum/fmt command line"
actual=$($G rev-parse HEAD)

if [ "$actual" != "$expected" ]; then
  die "built $NAME at commit $actual, but the tasks record $expected.
  examples/repo-src/$NAME differs from the files the dataset was written against (or a line-ending/mode filter
  changed them on checkout). Restore repo-src, or update baseCommit in every task.json if the change is intended."
fi

rm -rf "$DEST"
mv "$TMP" "$DEST"
trap - EXIT INT TERM
echo "built: $DEST at $actual"
