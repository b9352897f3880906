"""Checks that the RISC-V board's Debian packages are installed (`--config=riscv32`).

Only the riscv32 toolchain refers to the repository this rule makes, so host and Cortex-M3
builds never fetch it. A failed check is not cached: once the packages are there, the
next riscv32 build checks again and goes on.
"""

# Each package, known by one file it installs.
_RISCV_PACKAGE_FILES = [
    ("gcc-riscv64-unknown-elf", "/usr/bin/riscv64-unknown-elf-gcc"),
    ("picolibc-riscv64-unknown-elf", "/usr/lib/picolibc/riscv64-unknown-elf/lib/rv32imac/ilp32/libsemihost.a"),
    # The C++ library's headers (templates and the C headers' std:: wrappers): Debian 12
    # has no libstdc++ for riscv64-unknown-elf, and these, configured for newlib, fit
    # picolibc (newlib's descendant). Only headers are used; nothing of the Arm build links.
    ("libstdc++-arm-none-eabi-dev", "/usr/include/newlib/c++/12.2.1/algorithm"),
]

def _riscv_packages_impl(ctx):
    absent = [name for name, path in _RISCV_PACKAGE_FILES if not ctx.path(path).exists]
    if absent:
        fail(("\n\ntickbench: the RISC-V board build (--config=riscv32) needs Debian packages " +
              "that are not installed: {0}\nRun tools/setup.sh --riscv (as root), or: " +
              "apt-get install {0}\n").format(" ".join(absent)))
    ctx.file("WORKSPACE", "workspace(name = \"{}\")\n".format(ctx.name))
    ctx.file("BUILD.bazel", "\n".join([
        "# Made by bazel/toolchains/riscv32/packages.bzl. The compiler, picolibc and the C++",
        "# headers are system files the sandbox shows where Debian puts them: this group",
        "# stands for \"checked installed\".",
        "filegroup(name = \"files\", visibility = [\"//visibility:public\"])",
        "",
    ]))

debian_riscv_packages = repository_rule(
    implementation = _riscv_packages_impl,
    local = True,
)
