#!/bin/sh
echo "tickbench: 'bazel coverage' is not supported in the offline build (no coverage tools)." >&2
exit 1
