"""Programs for the board (//platform:cortex_m3): a binary or a test linked with the board's
start-up code and memory map, tagged "board" (what `--config=cortex_m3` builds and tests)
and skipped by host builds, which cannot link them."""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_test")
load("//bazel:copts.bzl", "TICKBENCH_COPTS")

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
