#!/usr/bin/env bash
# Installs the Debian 12 packages tickbench builds and runs with, and nothing else.
# Idempotent: it installs only what is missing and says what that is.
#
#   tools/setup.sh            the build, the tests and the plots
#   tools/setup.sh --compare  also sockperf, qperf (comparison with established tools)
set -euo pipefail

packages=(
  bazel-bootstrap    # Bazel 4.2.3
  bazel-rules-cc     # rules_cc, patched at build time for Bazel 4 (bazel/system_repos.bzl)
  bazel-rules-java   # rules_java: Bazel registers Java toolchains even for C++
  g++                # the C++17 compiler
  pkg-config         # Abseil's link line
  libabsl-dev        # Abseil 20220623: flags, Status, StrFormat, time, random
  libgtest-dev       # GoogleTest
  libgmock-dev       # GoogleMock
  libbenchmark-dev   # Google Benchmark (clock read benchmarks)
  gnuplot-nox        # --plot
  iproute2           # network namespaces for the across-hosts tests
)
for arg in "$@"; do
  case "$arg" in
    --compare) packages+=(sockperf qperf) ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown option '$arg' (allowed: --compare, --help)" >&2; exit 2 ;;
  esac
done

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: all ${#packages[@]} packages are installed; nothing to do."
  exit 0
fi

echo "setup.sh: installing ${missing[*]}"
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup.sh: run as root (apt-get needs it)" >&2; exit 1; }
  as_root=(sudo)
fi
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup.sh: done."
