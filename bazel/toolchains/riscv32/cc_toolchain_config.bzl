"""The C++ toolchain configuration for Debian's bare-metal RISC-V compiler
(gcc-riscv64-unknown-elf) and picolibc, for an rv32imac hart.

* The exact multilib spelling `-march=rv32imac -mabi=ilp32` on every compile and on the
  link: `rv32imac_zicsr` would make GCC pick the rv64 libraries. The CSR instructions
  (Zicsr, which GCC 12 wants named) are enabled where they are written, in board code.
* C++17 without exceptions or RTTI. Debian 12 has no libstdc++ for this target: the C++
  headers are libstdc++'s newlib configuration (libstdc++-arm-none-eabi-dev's, plain
  templates and wrappers of the C headers, which picolibc provides), and no C++ library is
  linked; what the language runtime needs (operator delete for virtual destructors,
  __cxa_pure_virtual) is the board's start-up code.
* picolibc with semihosting (`--specs=picolibc.specs --oslib=semihost`), no start files:
  programs bring their own start-up code; the memory map is the board's (linkopts).
* Linked statically into one ELF image, as the Cortex-M3 toolchain does.
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

_CXX_HEADERS = "/usr/include/newlib/c++/12.2.1"

_ARCH = ["-march=rv32imac", "-mabi=ilp32", "-mcmodel=medany"]

_CXX = [
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
    ACTION_NAMES.cpp_module_codegen,
]

_ALL_COMPILE = _CXX + [
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
    ACTION_NAMES.c_compile,
]

_LINK = [ACTION_NAMES.cpp_link_executable]

def _set(actions, flags, when = None):
    return flag_set(
        actions = actions,
        flag_groups = [flag_group(flags = flags)],
        with_features = [with_feature_set(features = [when])] if when else [],
    )

def _riscv32_impl(ctx):
    tools = {name: "/usr/bin/riscv64-unknown-elf-" + name for name in [
        "ar",
        "cpp",
        "gcc",
        "gcov",
        "ld",
        "nm",
        "objcopy",
        "objdump",
        "strip",
    ]}
    tools["dwp"] = "/bin/false"
    tools["llvm-cov"] = "/bin/false"
    compile_flags = _ARCH + [
        "--specs=picolibc.specs",
        "-Wall",
        "-ffunction-sections",
        "-fdata-sections",
        # Board code: the C library is there for printf and memcpy, not for an OS.
        "-DTICKBENCH_BARE_METAL=1",
    ]
    cxx_flags = [
        "-nostdinc++",
        "-isystem",
        _CXX_HEADERS,
        "-isystem",
        _CXX_HEADERS + "/arm-none-eabi",
        "-fno-exceptions",
        "-fno-rtti",
        "-fno-threadsafe-statics",
    ]
    link_flags = _ARCH + [
        "--specs=picolibc.specs",
        "--oslib=semihost",
        "-nostartfiles",
        "-Wl,--gc-sections",
        "-lm",
    ]
    reproducible = [
        "-fno-canonical-system-headers",
        "-Wno-builtin-macro-redefined",
        "-D__DATE__=\"redacted\"",
        "-D__TIMESTAMP__=\"redacted\"",
        "-D__TIME__=\"redacted\"",
    ]
    features = [
        feature(name = "opt"),
        feature(name = "dbg"),
        feature(name = "default_compile_flags", enabled = True, flag_sets = [
            _set(_ALL_COMPILE, compile_flags),
            _set(_CXX, cxx_flags),
            _set(_ALL_COMPILE, ["-g"], when = "dbg"),
            _set(_ALL_COMPILE, ["-g0", "-O2", "-DNDEBUG"], when = "opt"),
        ]),
        feature(name = "default_link_flags", enabled = True, flag_sets = [_set(_LINK, link_flags)]),
        feature(name = "unfiltered_compile_flags", enabled = True, flag_sets = [
            _set(_ALL_COMPILE, reproducible),
        ]),
    ]
    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        features = features,
        cxx_builtin_include_directories = [
            "/usr/lib/gcc/riscv64-unknown-elf",
            "/usr/lib/picolibc/riscv64-unknown-elf/include",
            _CXX_HEADERS,
        ],
        toolchain_identifier = "debian_riscv64_unknown_elf_rv32imac",
        host_system_name = "x86_64-linux-gnu",
        target_system_name = "riscv64-unknown-elf",
        target_cpu = "rv32imac",
        target_libc = "picolibc",
        compiler = "gcc",
        abi_version = "ilp32",
        abi_libc_version = "picolibc",
        tool_paths = [tool_path(name = name, path = path) for name, path in tools.items()],
    )

debian_riscv32_cc_toolchain_config = rule(
    implementation = _riscv32_impl,
    provides = [CcToolchainConfigInfo],
)
