"""libFuzzer binaries, built only with --config=fuzz (clang; see .bazelrc)."""

load("@rules_cc//cc:defs.bzl", "cc_binary")
load("//bazel:copts.bzl", "TICKBENCH_COPTS")

def tickbench_fuzzer(name, deps):
    """A libFuzzer binary from `name`.cc, which defines LLVMFuzzerTestOneInput.

    Tagged manual, so that `bazel build //...` skips it, and incompatible outside
    --config=fuzz, so that asking for it by name with gcc says why instead of failing to
    link: libFuzzer's main() exists only in clang's runtime.
    """
    cc_binary(
        name = name,
        srcs = [name + ".cc"],
        copts = TICKBENCH_COPTS,
        linkopts = ["-fsanitize=fuzzer"],
        tags = ["manual"],
        target_compatible_with = select({
            "//fuzz:fuzzing": [],
            "//conditions:default": ["@platforms//:incompatible"],
        }),
        deps = deps,
    )
