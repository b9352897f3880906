"""Programs for the board (//platform:cortex_m3): a binary or a test linked with the board's
start-up code and memory map, tagged "board" (what `--config=cortex_m3` builds and tests)
and skipped by host builds, which cannot link them."""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_test")
load("//bazel:copts.bzl", "TICKBENCH_COPTS")
load("//bazel:tickbench.bzl", "tickbench_cc_binary")
load("//board/riscv32:riscv32.bzl", "riscv32_board_attrs")

BOARD_COMPATIBLE = ["//platform:mps2_an385"]

def _board_attrs(kwargs):
    kwargs["deps"] = kwargs.get("deps", []) + ["//board:runtime"]
    kwargs["copts"] = kwargs.get("copts", TICKBENCH_COPTS)
    kwargs["linkopts"] = kwargs.get("linkopts", []) + ["-T$(location //board:mps2_an385.ld)"]
    kwargs["additional_linker_inputs"] = kwargs.get("additional_linker_inputs", []) + ["//board:mps2_an385.ld"]
    kwargs["tags"] = kwargs.get("tags", []) + ["board"]
    kwargs["target_compatible_with"] = BOARD_COMPATIBLE
    return kwargs

def board_cc_binary(name, **kwargs):
    cc_binary(name = name, **_board_attrs(kwargs))

def board_cc_test(name, **kwargs):
    """A test that runs on the board: it passes when it exits 0 (semihosting SYS_EXIT)."""
    cc_test(name = name, **_board_attrs(kwargs))

def _on_board(board, riscv32, host):
    return select({
        "//board:on_board": board,
        "//board/riscv32:on_board": riscv32,
        "//conditions:default": host,
    })

def board_or_host_cc_binary(name, board_deps, riscv32_deps, srcs = [], deps = [], tags = [], **kwargs):
    """A tickbench_cc_binary that is the host's program (`srcs`, `deps`) and, when built for
    a board, the board program linked with the board's start-up code and memory map: from
    `board_deps` for the Cortex-M3 (`--config=cortex_m3`), from `riscv32_deps` for the
    RISC-V board (`--config=riscv32`). Its output keeps its name and path in all three
    (bazel-bin/PKG/NAME), so scripts and tests that find it there work for any. Tagged
    "board", which is what the board configs build."""
    board = _board_attrs({"deps": board_deps})
    riscv32 = riscv32_board_attrs({"deps": riscv32_deps})
    tickbench_cc_binary(
        name = name,
        srcs = _on_board([], [], srcs),
        deps = _on_board(board["deps"], riscv32["deps"], deps),
        linkopts = _on_board(board["linkopts"], riscv32["linkopts"], []),
        additional_linker_inputs = _on_board(board["additional_linker_inputs"], [], []),
        tags = tags + ["board"],
        **kwargs
    )
