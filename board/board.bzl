"""Programs for the board (//platform:cortex_m3): a binary or a test linked with the board's
start-up code and memory map, tagged "board" (what `--config=cortex_m3` builds and tests)
and skipped by host builds, which cannot link them."""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_test")
load("//bazel:copts.bzl", "TICKBENCH_COPTS")
load("//bazel:tickbench.bzl", "tickbench_cc_binary")

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

def _on_board(board, host):
    return select({"//board:on_board": board, "//conditions:default": host})

def board_or_host_cc_binary(name, board_deps, srcs = [], deps = [], tags = [], **kwargs):
    """A tickbench_cc_binary that is the host's program (`srcs`, `deps`) and, when built for
    the board (`--config=cortex_m3`), the board program linked from `board_deps` with the
    board's start-up code and memory map. Its output keeps its name and path in both
    (bazel-bin/PKG/NAME), so scripts and tests that find it there work for either. Tagged
    "board", which is what `--config=cortex_m3` builds."""
    board = _board_attrs({"deps": board_deps})
    tickbench_cc_binary(
        name = name,
        srcs = _on_board([], srcs),
        deps = _on_board(board["deps"], deps),
        linkopts = _on_board(board["linkopts"], []),
        additional_linker_inputs = _on_board(board["additional_linker_inputs"], []),
        tags = tags + ["board"],
        **kwargs
    )
