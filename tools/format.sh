#!/usr/bin/env bash
# Formats the tree, or checks that it is formatted: C++ with clang-format (.clang-format:
# Google style, 100 columns), Bazel files with buildifier.
#
#   tools/format.sh          rewrites what is not formatted
#   tools/format.sh --check  changes nothing; lists what is not formatted and exits 1 if any
#
# `tools/setup.sh --format` installs both (clang-format from Debian, buildifier from the
# npm registry's @bazel/buildifier, which ships the binary).
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
  *) echo "format.sh: unknown option '$1' (allowed: --check, --help)" >&2; exit 2 ;;
esac

buildifier=$(command -v buildifier || true)
npm_buildifier="${TICKBENCH_NPM_PREFIX:-$HOME/.cache/tickbench/npm}/node_modules/.bin/buildifier"
[ -z "$buildifier" ] && [ -x "$npm_buildifier" ] && buildifier=$npm_buildifier
command -v clang-format >/dev/null || { echo "format.sh: clang-format is missing (tools/setup.sh --format)" >&2; exit 1; }
[ -n "$buildifier" ] || { echo "format.sh: buildifier is missing (tools/setup.sh --format)" >&2; exit 1; }

mapfile -t cpp < <(git ls-files '*.cc' '*.h')
mapfile -t bazel_files < <(git ls-files 'BUILD' '*/BUILD' 'BUILD.bazel' '*/BUILD.bazel' '*.bzl' 'WORKSPACE')

if [ "$check" -eq 0 ]; then
  clang-format -i "${cpp[@]}"
  "$buildifier" -lint=off "${bazel_files[@]}"
  exit 0
fi

# One clang-format per core, on batches of files, each batch's messages in a file of its
# own (so that two batches' lines never mix); an unformatted file is named in its
# "FILE:LINE:COLUMN: error: code should be clang-formatted" line.
unformatted=0
batches=$(mktemp -d)
trap 'rm -rf "$batches"' EXIT
status=0
printf '%s\0' "${cpp[@]}" |
  xargs -0 -n 25 -P "$(nproc 2>/dev/null || echo 1)" sh -c \
    'clang-format --dry-run -Werror --ferror-limit=1 "$@" >/dev/null 2>"$(mktemp "$0/batch.XXXXXX")"' \
    "$batches" || status=$?
while read -r file; do
  echo "not formatted (clang-format): $file"
  unformatted=$((unformatted + 1))
done < <(cat "$batches"/batch.* | sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
if [ "$status" -ne 0 ] && [ "$unformatted" -eq 0 ]; then
  echo "format.sh: clang-format failed:" >&2
  cat "$batches"/batch.* >&2
  unformatted=1
fi
if ! "$buildifier" -mode=check -lint=off "${bazel_files[@]}"; then
  unformatted=$((unformatted + 1))
fi
if [ "$unformatted" -ne 0 ]; then
  echo "format.sh: the tree is not formatted; run tools/format.sh" >&2
  exit 1
fi
echo "format.sh: every C++ and Bazel file is formatted"
