"""Programs for the RISC-V board (//platform:riscv32, QEMU `virt`): a binary or a test
linked with the board's start-up code and memory map, tagged "board" (what
`--config=riscv32` builds and tests) and skipped by other builds, which cannot link them."""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_test")
load("//bazel:copts.bzl", "TICKBENCH_COPTS")

RISCV32_COMPATIBLE = ["//platform:qemu_virt_rv32"]

# `virt` has its RAM at 0x80000000 and starts a -kernel image there (-bios none): the
# image's code and constants in its first 4 MiB, data, stack and heap in the next 16 MiB,
# given to picolibc's linker script (picolibc.ld) by its own symbols.
RISCV32_LINKOPTS = [
    "-Wl,--defsym=__flash=0x80000000",
    "-Wl,--defsym=__flash_size=0x400000",
    "-Wl,--defsym=__ram=0x80400000",
    "-Wl,--defsym=__ram_size=0x1000000",
    "-Wl,--defsym=__stack_size=0x10000",
]

def riscv32_board_attrs(kwargs):
    """A board program's attributes: the start-up code, the memory map, the tag."""
    kwargs["deps"] = kwargs.get("deps", []) + ["//board/riscv32:runtime"]
    kwargs["copts"] = kwargs.get("copts", TICKBENCH_COPTS)
    kwargs["linkopts"] = kwargs.get("linkopts", []) + RISCV32_LINKOPTS
    kwargs["additional_linker_inputs"] = kwargs.get("additional_linker_inputs", [])
    kwargs["tags"] = kwargs.get("tags", []) + ["board"]
    kwargs["target_compatible_with"] = RISCV32_COMPATIBLE
    return kwargs

def riscv32_cc_binary(name, **kwargs):
    cc_binary(name = name, **riscv32_board_attrs(kwargs))

def riscv32_cc_test(name, **kwargs):
    """A test that runs on the board: it passes when it exits 0 (SYS_EXIT_EXTENDED)."""
    cc_test(name = name, **riscv32_board_attrs(kwargs))
