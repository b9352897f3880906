"""The C++ toolchain configuration for Debian's arm64 cross compiler (g++-aarch64-linux-gnu).

Mirrors the flags of the host toolchain Bazel generates (@local_config_cc) so that an
arm64 build differs from the host build only in its target, not in how it optimizes;
it leaves out the host's `-fuse-ld=gold -B/usr/bin`, which would pick the host's linker.
Bazel's legacy features supply the rest (includes, defines, dependency files, PIC,
libraries to link, user --copt/--linkopt), since this configuration does not turn on
`no_legacy_features`.
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "feature",
    "flag_group",
    "flag_set",
    "tool_path",
    "with_feature_set",
)

_COMPILE_ACTIONS = [
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
    ACTION_NAMES.c_compile,
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
    ACTION_NAMES.cpp_module_codegen,
]

_LINK_ACTIONS = [
    ACTION_NAMES.cpp_link_executable,
    ACTION_NAMES.cpp_link_dynamic_library,
    ACTION_NAMES.cpp_link_nodeps_dynamic_library,
]

def _flags(actions, flags, with_features = []):
    return flag_set(actions = actions, flag_groups = [flag_group(flags = flags)], with_features = with_features)

def _impl(ctx):
    prefix = "/usr/bin/aarch64-linux-gnu-"
    tool_paths = [
        tool_path(name = name, path = prefix + name)
        for name in ["ar", "cpp", "dwp", "gcc", "gcov", "ld", "nm", "objcopy", "objdump", "strip"]
    ]

    # Debian ships no arm64 llvm-cov with the cross compiler; `bazel coverage` is not
    # supported offline anyway (bazel/remote_coverage_tools).
    tool_paths.append(tool_path(name = "llvm-cov", path = "/bin/false"))

    features = [
        # Bazel turns on the feature named after the compilation mode (-c opt / -c dbg).
        feature(name = "opt"),
        feature(name = "dbg"),
        feature(name = "supports_pic", enabled = True),
        feature(name = "supports_dynamic_linker", enabled = True),
        feature(
            name = "default_compile_flags",
            enabled = True,
            flag_sets = [
                _flags(_COMPILE_ACTIONS, [
                    "-U_FORTIFY_SOURCE",
                    "-fstack-protector",
                    "-Wall",
                    "-Wunused-but-set-parameter",
                    "-Wno-free-nonheap-object",
                    "-fno-omit-frame-pointer",
                ]),
                _flags(_COMPILE_ACTIONS, ["-g"], with_features = [with_feature_set(features = ["dbg"])]),
                _flags(_COMPILE_ACTIONS, [
                    "-g0",
                    "-O2",
                    "-D_FORTIFY_SOURCE=1",
                    "-DNDEBUG",
                    "-ffunction-sections",
                    "-fdata-sections",
                ], with_features = [with_feature_set(features = ["opt"])]),
            ],
        ),
        feature(
            name = "default_link_flags",
            enabled = True,
            flag_sets = [
                _flags(_LINK_ACTIONS, [
                    # The arm64 -dev packages install into the multiarch directory; the
                    # -l flags of the system repositories (bazel/system_repos.bzl) are the
                    # same for both architectures, only this search path differs.
                    "-L/usr/lib/aarch64-linux-gnu",
                    "-Wl,-no-as-needed",
                    "-Wl,-z,relro,-z,now",
                    "-pass-exit-codes",
                    "-lstdc++",
                    "-lm",
                ]),
                _flags(_LINK_ACTIONS, ["-Wl,--gc-sections"], with_features = [with_feature_set(features = ["opt"])]),
            ],
        ),
        # As on the host: header paths in the dependency files as the compiler found them
        # (under the builtin directories below, which Bazel checks), and no timestamps.
        feature(
            name = "unfiltered_compile_flags",
            enabled = True,
            flag_sets = [
                _flags(_COMPILE_ACTIONS, [
                    "-fno-canonical-system-headers",
                    "-Wno-builtin-macro-redefined",
                    "-D__DATE__=\"redacted\"",
                    "-D__TIMESTAMP__=\"redacted\"",
                    "-D__TIME__=\"redacted\"",
                ]),
            ],
        ),
    ]

    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        features = features,
        # Headers the cross compiler finds by itself (`aarch64-linux-gnu-g++ -E -v`); Bazel
        # accepts includes under these directories without declaring them.
        cxx_builtin_include_directories = [
            "/usr/lib/gcc-cross/aarch64-linux-gnu",
            "/usr/aarch64-linux-gnu/include",
            "/usr/include",
        ],
        toolchain_identifier = "debian_aarch64_linux_gnu",
        host_system_name = "x86_64-linux-gnu",
        target_system_name = "aarch64-linux-gnu",
        target_cpu = "aarch64",
        target_libc = "glibc",
        compiler = "gcc",
        abi_version = "gcc",
        abi_libc_version = "glibc",
        tool_paths = tool_paths,
    )

debian_aarch64_cc_toolchain_config = rule(
    implementation = _impl,
    provides = [CcToolchainConfigInfo],
)
