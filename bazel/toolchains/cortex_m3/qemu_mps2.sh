#!/usr/bin/env bash
# Runs a board program on an emulated Arm MPS2 board (mps2-an385: a Cortex-M3, 25 MHz,
# SysTick emulated) under qemu-system-arm: the --run_under of `--config=cortex_m3`
# (.bazelrc), so `bazel run` and `bazel test` work unchanged.
#
#   qemu_mps2.sh PROGRAM [ARG...]
#
# * The arguments reach the program through semihosting (QEMU's -append; the program reads
#   them with SYS_GET_CMDLINE), so they may not contain spaces.
# * Its standard output and error are semihosting's, on this script's standard output;
#   its exit code (semihosting SYS_EXIT_EXTENDED) is this script's.
# * Time is deterministic: `-icount shift=N` advances the board's clock 2^N ns per
#   instruction whatever the host's load (TICKBENCH_ICOUNT_SHIFT, default 5: 32 ns, about
#   the instruction time of a 25 MHz Cortex-M3), so the same program prints the same
#   figures on every run.
# * A program that never ends is stopped after TICKBENCH_BOARD_TIMEOUT seconds of host
#   time (default 240), with exit code 124.
# * A PROGRAM that is not an Arm ELF image (a host-side test script that runs board
#   programs itself) is run directly, on the host.
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "qemu_mps2.sh: usage: qemu_mps2.sh PROGRAM [ARG...]" >&2
  exit 2
fi
program=$1
shift

# An ELF image (7f 45 4c 46) for e_machine 40 (EM_ARM, bytes 18-19, little-endian).
header=$(od -An -tx1 -N20 "$program" 2>/dev/null | tr -d ' \n')
if [ "${header:0:8}" != 7f454c46 ] || [ "${header:36:4}" != 2800 ]; then
  exec "$program" "$@"
fi

if ! command -v qemu-system-arm >/dev/null 2>&1; then
  echo "tickbench: qemu-system-arm not found: install Debian's qemu-system-arm (tools/setup.sh --mcu) to run board programs on this host." >&2
  exit 127
fi
for arg in "$@"; do
  if [[ "$arg" == *[[:space:]]* ]]; then
    echo "qemu_mps2.sh: the board's command line is split at spaces; this argument has one: '$arg'" >&2
    exit 2
  fi
done

shift_n=${TICKBENCH_ICOUNT_SHIFT:-5}
export TICKBENCH_EMULATED=qemu-system-arm
# -append "" would still be a command line; QEMU puts the image's path first (argv[0]).
status=0
timeout --kill-after=10 "${TICKBENCH_BOARD_TIMEOUT:-240}" \
  qemu-system-arm -M mps2-an385 -nographic -monitor none -serial none \
  -semihosting-config enable=on,target=native \
  -icount shift="$shift_n" \
  -kernel "$program" -append "$*" || status=$?
if [ "$status" -eq 124 ]; then
  echo "qemu_mps2.sh: the board program ran longer than ${TICKBENCH_BOARD_TIMEOUT:-240} s and was stopped" >&2
fi
exit "$status"
