"""The C++ toolchain configuration for Debian's bare-metal Arm compiler (gcc-arm-none-eabi).

Compiles for a Cortex-M3 (Thumb-2, no FPU), freestanding in spirit: C++17 without
exceptions or RTTI, newlib as the C library, semihosting (rdimon) for output, the
command line and the exit code. Programs bring their own start-up code and memory map
(//board:runtime); the link leaves out the C runtime's start files (-nostartfiles).
Everything is linked statically: the toolchain has no dynamic linker (no `supports_pic`,
no `supports_dynamic_linker`), so Bazel links tests and binaries as single ELF images.
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

_CXX_ACTIONS = [
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
    ACTION_NAMES.cpp_module_codegen,
]

_LINK_ACTIONS = [
    ACTION_NAMES.cpp_link_executable,
]

# The CPU, on every compile and on the link (which picks the v7-m multilib with it).
_CPU_FLAGS = ["-mcpu=cortex-m3", "-mthumb", "-mfloat-abi=soft"]

def _flags(actions, flags, with_features = []):
    return flag_set(actions = actions, flag_groups = [flag_group(flags = flags)], with_features = with_features)

def _impl(ctx):
    prefix = "/usr/bin/arm-none-eabi-"
    tool_paths = [
        tool_path(name = name, path = prefix + name)
        for name in ["ar", "cpp", "gcc", "gcov", "ld", "nm", "objcopy", "objdump", "strip"]
    ]
    tool_paths.append(tool_path(name = "dwp", path = "/bin/false"))
    tool_paths.append(tool_path(name = "llvm-cov", path = "/bin/false"))

    features = [
        feature(name = "opt"),
        feature(name = "dbg"),
        feature(
            name = "default_compile_flags",
            enabled = True,
            flag_sets = [
                _flags(_COMPILE_ACTIONS, _CPU_FLAGS + [
                    "-Wall",
                    "-ffunction-sections",
                    "-fdata-sections",
                    # Board code is freestanding: the C library is there for printf and
                    # memcpy, not for the OS it does not have.
                    "-DTICKBENCH_BARE_METAL=1",
                ]),
                _flags(_CXX_ACTIONS, ["-fno-exceptions", "-fno-rtti", "-fno-threadsafe-statics"]),
                _flags(_COMPILE_ACTIONS, ["-g"], with_features = [with_feature_set(features = ["dbg"])]),
                _flags(_COMPILE_ACTIONS, ["-g0", "-O2", "-DNDEBUG"], with_features = [with_feature_set(features = ["opt"])]),
            ],
        ),
        feature(
            name = "default_link_flags",
            enabled = True,
            flag_sets = [
                _flags(_LINK_ACTIONS, _CPU_FLAGS + [
                    "-nostartfiles",
                    # newlib with semihosting. Not newlib-nano: its printf has no %lld,
                    # which the reports print int64_t counts with.
                    "--specs=rdimon.specs",
                    "-Wl,--gc-sections",
                    "-lstdc++",
                    "-lm",
                ]),
            ],
        ),
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
        # `arm-none-eabi-g++ -E -v`: the compiler's own headers and newlib's.
        cxx_builtin_include_directories = [
            "/usr/lib/gcc/arm-none-eabi",
            "/usr/lib/arm-none-eabi/include",
        ],
        toolchain_identifier = "debian_arm_none_eabi_cortex_m3",
        host_system_name = "x86_64-linux-gnu",
        target_system_name = "arm-none-eabi",
        target_cpu = "cortex-m3",
        target_libc = "newlib",
        compiler = "gcc",
        abi_version = "eabi",
        abi_libc_version = "newlib",
        tool_paths = tool_paths,
    )

debian_arm_none_eabi_cc_toolchain_config = rule(
    implementation = _impl,
    provides = [CcToolchainConfigInfo],
)
