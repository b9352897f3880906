"""Compiler options for tickbench's own targets (not external repositories)."""

TICKBENCH_COPTS = [
    "-Wall",
    "-Wextra",
    "-Wno-sign-compare",
    "-Wno-unused-parameter",
    # Warnings the code relies on are errors: a switch over an enum must name every value
    # (the registries and formats count on it), and no function may fall off its end.
    "-Werror=switch",
    "-Werror=return-type",
]

TICKBENCH_TEST_COPTS = TICKBENCH_COPTS
