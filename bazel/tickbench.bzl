"""tickbench's own C++ rules: cc_library, cc_binary and cc_test with the project's copts
(//bazel:copts.bzl) and, for tests, GoogleTest's main. Thin wrappers: every attribute of
the underlying rule is passed through, nothing is hidden; `copts` given are appended."""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")
load("//bazel:copts.bzl", "TICKBENCH_COPTS", "TICKBENCH_TEST_COPTS")

_GTEST_MAIN = "@com_google_googletest//:gtest_main"

def tickbench_cc_library(name, copts = [], **kwargs):
    cc_library(name = name, copts = TICKBENCH_COPTS + copts, **kwargs)

def tickbench_cc_binary(name, copts = [], **kwargs):
    cc_binary(name = name, copts = TICKBENCH_COPTS + copts, **kwargs)

def tickbench_cc_test(name, copts = [], deps = [], gtest_main = True, **kwargs):
    """A test; with `gtest_main` (the default) linked with GoogleTest's main()."""
    if gtest_main and _GTEST_MAIN not in deps:
        deps = deps + [_GTEST_MAIN]
    cc_test(name = name, copts = TICKBENCH_TEST_COPTS + copts, deps = deps, **kwargs)
