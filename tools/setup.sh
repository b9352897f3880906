#!/usr/bin/env bash
# Installs the Debian 12 packages tickbench builds and runs with, and nothing else.
# Idempotent: it installs only what is missing and says what that is.
#
#   tools/setup.sh            the build, the tests and the plots
#   tools/setup.sh --compare  also sockperf, qperf (comparison with established tools)
#   tools/setup.sh --arm64    also the arm64 cross build, tested under QEMU (docs/platforms.md)
#   tools/setup.sh --fuzz     also clang and libFuzzer (tools/run_fuzzers.sh)
#   tools/setup.sh --mcu      also the bare-metal Cortex-M3 build, run under QEMU (docs/platforms.md)
#   tools/setup.sh --riscv    also the bare-metal RISC-V (rv32imac) build, run under QEMU (docs/platforms.md)
#   tools/setup.sh --mpi      also Open MPI and NetPIPE for it (--config=mpi: the mpi transport, the
#                             mpi_wtime clock, the matrix experiment under mpirun; README)
#   tools/setup.sh --format   also clang-format and buildifier (tools/format.sh; buildifier from
#                             the npm registry's @bazel/buildifier, into ~/.cache/tickbench/npm)
#   tools/setup.sh --report   also chromium (headless: tests:report_page_browser_test opens --report pages)
#   tools/setup.sh --ci       everything CI runs: --arm64 --fuzz --mcu --riscv --format --report --mpi
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
  strace             # tests:syscall_count_test counts the system calls of a round trip
)
architectures=()
want_buildifier=0  # foreign architectures dpkg must know before apt-get update
options=()
for arg in "$@"; do
  if [ "$arg" = --ci ]; then options+=(--arm64 --fuzz --mcu --riscv --format --report --mpi); else options+=("$arg"); fi
done
for arg in "${options[@]}"; do
  case "$arg" in
    --compare) packages+=(sockperf qperf) ;;
    --mpi)
      packages+=(
        openmpi-bin       # mpirun, and Open MPI's run-time
        libopenmpi-dev    # <mpi.h> and libmpi (bazel/system_mpi.bzl)
        netpipe-openmpi   # NPmpi, the established MPI ping-pong to compare with (bench/)
        jq                # tests/netlab_mpi_e2e_test.sh reads the matrix's JSON
      ) ;;
    --fuzz) packages+=(clang libclang-rt-14-dev) ;;
    --report) packages+=(chromium) ;;  # headless, for the --report page's browser test
    --arm64)
      # The :arm64 packages are Debian's multiarch builds, installable beside the amd64
      # ones (Multi-Arch: same) once dpkg knows the architecture.
      architectures+=(arm64)
      packages+=(
        g++-aarch64-linux-gnu    # the cross compiler (bazel/toolchains/aarch64)
        libabsl-dev:arm64
        libgtest-dev:arm64
        libgmock-dev:arm64
        libbenchmark-dev:arm64
        qemu-user                # qemu-aarch64 runs the arm64 tests here, without binfmt_misc
        file                     # tools/ci_aarch64.sh checks what was built
      ) ;;
    --mcu)
      packages+=(
        gcc-arm-none-eabi               # the bare-metal cross compiler (bazel/toolchains/cortex_m3)
        libnewlib-arm-none-eabi         # newlib and newlib-nano, with semihosting (rdimon)
        libstdc++-arm-none-eabi-newlib  # the C++17 headers and library for it
        qemu-system-arm                 # the mps2-an385 board (Cortex-M3) the board programs run on
      ) ;;
    --riscv)
      packages+=(
        gcc-riscv64-unknown-elf       # the bare-metal RISC-V cross compiler (bazel/toolchains/riscv32)
        picolibc-riscv64-unknown-elf  # its C library, with semihosting
        libstdc++-arm-none-eabi-dev   # C++ headers only (newlib's configuration fits picolibc)
        qemu-system-misc              # qemu-system-riscv32: the `virt` board the programs run on
      ) ;;
    --format)
      packages+=(clang-format)  # C++ formatting (.clang-format)
      # npm fetches @bazel/buildifier, which ships the buildifier binary; a machine that
      # has npm from elsewhere (Node.js's own packages) keeps it: Debian's would conflict.
      command -v npm >/dev/null || packages+=(npm)
      want_buildifier=1 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown option '$arg' (allowed: --compare, --mpi, --arm64, --fuzz, --mcu, --riscv, --format, --report, --ci, --help)" >&2; exit 2 ;;
  esac
done

# buildifier for tools/format.sh, from the npm registry (a pinned version), unless present.
install_buildifier() {
  [ "$want_buildifier" -eq 1 ] || return 0
  local prefix="${TICKBENCH_NPM_PREFIX:-$HOME/.cache/tickbench/npm}"
  if command -v buildifier >/dev/null || [ -x "$prefix/node_modules/.bin/buildifier" ]; then
    return 0
  fi
  echo "setup.sh: installing buildifier (@bazel/buildifier) into $prefix"
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-audit --no-fund --silent @bazel/buildifier@8.2.1
}

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: all ${#packages[@]} packages are installed; nothing to do."
  install_buildifier
  exit 0
fi

echo "setup.sh: installing ${missing[*]}"
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup.sh: run as root (apt-get needs it)" >&2; exit 1; }
  as_root=(sudo)
fi
for architecture in "${architectures[@]}"; do
  "${as_root[@]}" dpkg --add-architecture "$architecture"  # a no-op when already added
done
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_buildifier
echo "setup.sh: done."
