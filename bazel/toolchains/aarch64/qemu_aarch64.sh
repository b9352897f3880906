#!/bin/sh
# Runs an arm64 program on an x86-64 host under QEMU user-mode emulation: the --run_under
# of `--config=aarch64` (.bazelrc), so `bazel test` and `bazel run` work unchanged.
#
# Explicit, rather than through binfmt_misc, which needs the host to register handlers
# (root, a mounted /proc/sys/fs/binfmt_misc) and is not available in every container.
#
# `-L /`: the program's dynamic loader, libc, libstdc++ and Abseil all come from Debian's
# arm64 multiarch packages (/lib/ld-linux-aarch64.so.1, /usr/lib/aarch64-linux-gnu), one
# matching set. The cross compiler's /usr/aarch64-linux-gnu is for linking only: taking
# its loader would pair it with the multiarch libc, a different build of glibc. `-L` also
# overrides Debian QEMU's default prefix /etc/qemu-binfmt/aarch64, wherever that points.
set -eu

if ! command -v qemu-aarch64 >/dev/null 2>&1; then
  echo "tickbench: qemu-aarch64 not found: install Debian's qemu-user (tools/setup.sh --arm64) to run arm64 programs on this host." >&2
  exit 127
fi
# Tests read this to skip, saying why, the few cases that QEMU cannot emulate (such as
# getsockopt(IP_MTU)); set here, where the emulation happens, rather than by the config.
export TICKBENCH_EMULATED=qemu-aarch64
exec qemu-aarch64 -L / "$@"
