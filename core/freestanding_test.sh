#!/usr/bin/env bash
# The core must stay freestanding (core/README.md): what //core depends on, as Bazel sees
# it, holds nothing from Abseil, GoogleTest, the OS layer (//platform) or the Linux code
# (//timing, //transport, //harness, ...); the package groups of //bazel:layers.bzl that
# say who may depend on it are visibility, not code. The board build would fail on such a
# dependency; this test says so on the host too, where the cross compiler may be absent.
#
#   freestanding_test.sh DEPS_FILE   (a genquery of deps(//core))
set -euo pipefail
deps=$1
[ -s "$deps" ] || { echo "FAIL: no dependency list in $deps"; exit 1; }
bad=$(grep -vE '^//core:|^//bazel:[a-z_]+_users$|^@bazel_tools//|^@local_config_cc//|^@rules_cc//|^@platforms//' "$deps" || true)
if [ -n "$bad" ]; then
  echo "FAIL: //core depends on what the board does not have:"
  echo "$bad"
  exit 1
fi
echo "PASS: //core depends on $(grep -c '^//core:' "$deps") targets of its own and nothing else of ours"
