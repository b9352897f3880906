#!/bin/sh
# Bazel's workspace status (.bazelrc: build --workspace_status_command=...): the version
# stamped into //harness, from `git describe`. Outside a git checkout, or without git, the
# version is "unknown". A STABLE_ key: the stamp (one small genrule and the link of what
# uses it) is redone only when the version changes, never for a build at the same commit.
version=$(git describe --tags --always --dirty 2>/dev/null) || version=""
# Only characters a C string and a JSON string take as they are.
version=$(printf '%s' "$version" | tr -cd 'A-Za-z0-9._+~-')
echo "STABLE_TICKBENCH_VERSION ${version:-unknown}"
