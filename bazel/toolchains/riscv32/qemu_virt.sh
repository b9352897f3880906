#!/usr/bin/env bash
# Runs a RISC-V board program on QEMU's `virt` machine (an rv32imac hart, the CLINT's timer
# at 10 MHz) under qemu-system-riscv32: the --run_under of `--config=riscv32` (.bazelrc),
# so `bazel run` and `bazel test` work unchanged.
#
#   qemu_virt.sh PROGRAM [ARG...]
#
# * The arguments reach the program through semihosting (-semihosting-config arg=...; the
#   program reads them with SYS_GET_CMDLINE, joined by spaces), so they may not contain
#   spaces.
# * Its standard output and error are semihosting's, on this script's standard output;
#   its exit code (semihosting SYS_EXIT_EXTENDED) is this script's.
# * Time is deterministic: `-icount shift=N` advances the board's clock 2^N ns per
#   instruction whatever the host's load (TICKBENCH_ICOUNT_SHIFT, default 5: 32 ns), so
#   the same program prints the same figures on every run. With sleep=off: with QEMU's
#   default (sleep=on) the `virt` board's runs differed by a few mtime counts from one run
#   to the next; with sleep=off they print the same bytes.
# * A program that never ends is stopped after TICKBENCH_BOARD_TIMEOUT seconds of host
#   time (default 240), with exit code 124.
# * A PROGRAM that is not a 32-bit RISC-V ELF image (a host-side test script that runs
#   board programs itself) is run directly, on the host.
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "qemu_virt.sh: usage: qemu_virt.sh PROGRAM [ARG...]" >&2
  exit 2
fi
program=$1
shift

# ELF (7f 45 4c 46), 32-bit (class 01), e_machine 243 (EM_RISCV, bytes 18-19: f3 00).
header=$(od -An -tx1 -N20 "$program" 2>/dev/null | tr -d ' \n')
if [ "${header:0:10}" != 7f454c4601 ] || [ "${header:36:4}" != f300 ]; then
  exec "$program" "$@"
fi

if ! command -v qemu-system-riscv32 >/dev/null 2>&1; then
  echo "tickbench: qemu-system-riscv32 not found: install Debian's qemu-system-misc (tools/setup.sh --riscv) to run RISC-V board programs on this host." >&2
  exit 127
fi
# The program's name, then each argument, as semihosting arguments; QEMU's option syntax
# takes a comma inside a value doubled.
semihosting=enable=on,target=native,arg=board
for arg in "$@"; do
  if [[ "$arg" == *[[:space:]]* ]]; then
    echo "qemu_virt.sh: the board's command line is split at spaces; this argument has one: '$arg'" >&2
    exit 2
  fi
  semihosting+=",arg=${arg//,/,,}"
done

shift_n=${TICKBENCH_ICOUNT_SHIFT:-5}
export TICKBENCH_EMULATED=qemu-system-riscv32
status=0
timeout --kill-after=10 "${TICKBENCH_BOARD_TIMEOUT:-240}" \
  qemu-system-riscv32 -M virt -bios none -nographic -monitor none -serial none \
  -semihosting-config "$semihosting" \
  -icount shift="$shift_n",sleep=off \
  -kernel "$program" || status=$?
if [ "$status" -eq 124 ]; then
  echo "qemu_virt.sh: the board program ran longer than ${TICKBENCH_BOARD_TIMEOUT:-240} s and was stopped" >&2
fi
exit "$status"
