"""Compiler options for tickbench's own targets (not external repositories)."""

TICKBENCH_COPTS = [
    "-Wall",
    "-Wextra",
    "-Wno-sign-compare",
    "-Wno-unused-parameter",
]

TICKBENCH_TEST_COPTS = TICKBENCH_COPTS
