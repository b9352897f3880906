#!/usr/bin/env bash
# The core must stay freestanding (core/README.md). Three checks, each of which fails on
# what the others would let through:
#
#  1. Bazel dependencies: what //core depends on holds nothing from Abseil, GoogleTest,
#     the OS layer (//platform) or the Linux code (//timing, //transport, //harness, ...);
#     the package groups of //bazel:layers.bzl that say who may depend on it are
#     visibility, not code.
#  2. Includes and names: every source of //core (the .h and .cc files in deps(//core))
#     includes only the standard headers of ALLOWED_HEADERS below and "core/..." headers,
#     and names no POSIX call (NAMES_REFUSED), comments left out. A POSIX call needs no
#     Bazel dependency, and the board build would not stop it either: newlib with rdimon
#     declares and defines gettimeofday, getpid, open, ... on the board too.
#  3. Symbols: the objects of core's libraries (host build) reference only the C library
#     functions of ALLOWED_SYMBOLS and the core's own symbols; every .cc of deps(//core)
#     must be in one of the archives given, so a new library cannot slip past.
#
#   freestanding_test.sh DEPS_FILE [LIBRARY_OUTPUT...]   (DEPS_FILE: a genquery of
#                                                   deps(//core); the .a files among the
#                                                   outputs are checked)
#   freestanding_test.sh --image ELF               the board image: no supervisor call
#                                                   (svc); its only way out of the
#                                                   program is semihosting (bkpt 0xab)
#
# Sources are looked for beside this script (core/ in the runfiles or the source tree).
set -euo pipefail

# The standard headers core/ may include: freestanding ones and the C library's string,
# math and formatting parts, which newlib provides without an OS (what core/ includes
# today: cstdint, cstddef, cstring, cmath, cstdio for snprintf, cstdarg, limits,
# algorithm). No <unistd.h>, <sys/...>, <pthread.h>, <time.h>/<ctime>, <thread>, <mutex>,
# <chrono>, <iostream>, Abseil or //platform. A new one is added here with a reason.
ALLOWED_HEADERS='cstdint cstddef cstring cmath cstdio cstdarg climits cfloat limits
  algorithm array type_traits utility initializer_list new'

# POSIX and OS functions core's code must not call (after comments are removed), and
# names it must not use at all (a hand-made extern "C" declaration would dodge the include
# check).
CALLS_REFUSED='gettimeofday|getpid|getppid|clock_gettime|clock_getres|nanosleep|usleep|sleep|
  fork|execv|execve|execvp|waitpid|syscall|getenv|setenv|sysconf|mmap|ioctl|kill|signal|
  sigaction|socket|pthread_[a-z_]+|time|clock|times|fopen|fclose|printf|fprintf|puts|
  malloc|calloc|realloc'
NAMES_REFUSED='std::thread|std::jthread|std::mutex|std::chrono|std::cout|std::cerr|std::clog|
  extern[[:space:]]*"C"'

# External symbols core's objects may reference: the core's own (tickbench::core), string
# and memory functions, libm, snprintf/vsnprintf (into caller's buffers), and what the
# host compiler adds (stack protector). A new one is added here with a reason.
ALLOWED_SYMBOLS='_ZN9tickbench4core|_ZNK9tickbench4core|mem(cpy|move|set|cmp|chr)|
  str(len|cmp|ncmp|chr|rchr|cpy|ncpy|tol|toul|toll|toull|tod)|
  (sqrt|floor|ceil|fabs|round|lround|llround|trunc|exp|log|log10|log2|pow|fmod|erf|erfc|
  lgamma|tgamma|modf|frexp|ldexp|nan)f?|snprintf|vsnprintf|__stack_chk_fail|__stack_chk_guard|
  _GLOBAL_OFFSET_TABLE_|__(asan|ubsan|sanitizer|lsan)_'
# (The last line: what a -c dbg build's position-independent code and the host's
# sanitizer builds, --config=asan and ubsan, add to every object; the board has none.)

here=$(cd "$(dirname "$0")" && pwd)

fail() {
  {
    echo "FAIL: $1"
    shift
    printf '%s\n' "$@"
  } >&2
  exit 1
}

one_line() { tr -d ' \n' <<<"$1"; }

# --image ELF: objdump the board image; fail on any svc, or a bkpt other than 0xab.
check_image() {
  local image=$1 objdump
  objdump=$(command -v arm-none-eabi-objdump || true)
  [ -n "$objdump" ] || fail "arm-none-eabi-objdump is missing (tools/setup.sh --mcu)"
  [ -s "$image" ] || fail "no board image at $image"
  local listing traps
  listing=$("$objdump" -d "$image")
  traps=$(grep -E $'\t(svc|swi|bkpt)[ \t]' <<<"$listing" | grep -vE $'\tbkpt[ \t]+0x0*ab$' || true)
  [ -z "$traps" ] || fail "$image calls out other than by semihosting (bkpt 0xab):" "$traps"
  echo "PASS: $image makes no supervisor call; $(grep -cE $'\tbkpt[ \t]+0x0*ab$' \
    <<<"$listing") semihosting calls (bkpt 0xab), nothing else"
}

check_deps() {
  local deps=$1 bad
  [ -s "$deps" ] || fail "no dependency list in $deps"
  bad=$(grep -vE '^//core:|^//bazel:[a-z_]+_users$|^@bazel_tools//|^@local_config_cc//|^@rules_cc//|^@platforms//' "$deps" || true)
  [ -z "$bad" ] || fail "//core depends on what the board does not have:" "$bad"
  echo "PASS: //core depends on $(grep -c '^//core:[a-z_]*$' "$deps") targets of its own and nothing else of ours"
}

# The source files of deps(//core), as paths beside this script.
core_sources() {
  local deps=$1 file
  for file in $(sed -nE 's#^//core:(.*\.(h|cc))$#\1#p' "$deps"); do
    [ -f "$here/$file" ] || fail "$file is in deps(//core) but not beside $0 (data of the test)"
    echo "$here/$file"
  done
}

# Prints the file's code without its comments.
strip_comments() {
  sed -E 's|//.*$||' "$1" | perl -0pe 's|/\*.*?\*/||gs'
}

check_sources() {
  local deps=$1 headers calls names sources bad="" file line header count=0
  headers="^(<($(tr -s ' \n' '|' <<<"$ALLOWED_HEADERS" | sed 's/^|//; s/|$//'))>|\"core/[a-z_]+\.h\")$"
  calls="(^|[^A-Za-z0-9_:.>]|std::|[^A-Za-z0-9_:]::)($(one_line "$CALLS_REFUSED"))[[:space:]]*\\("
  names="$(one_line "$NAMES_REFUSED")"
  sources=$(core_sources "$deps")
  for file in $sources; do
    count=$((count + 1))
    while IFS= read -r line; do
      header=$(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*([<"][^>"]+[>"]).*/\1/p' <<<"$line")
      if ! grep -qE "$headers" <<<"$header"; then
        bad+="${file#"$here"/}: $line"$'\n'
      fi
    done < <(grep -E '^[[:space:]]*#[[:space:]]*include' "$file")
    bad+=$(strip_comments "$file" | grep -nE "$calls|$names" | sed "s|^|${file#"$here"/}:|" || true)
  done
  [ "$count" -gt 0 ] || fail "no source of //core found in $deps"
  [ -z "$bad" ] || fail "core's sources include or call what a board has no OS for (allowed headers: $(tr -s ' \n' ' ' <<<"$ALLOWED_HEADERS")):" "$bad"
  echo "PASS: the $count sources of //core include only freestanding and C library headers and name no OS call"
}

check_symbols() {
  local deps=$1 archive symbols members stem bad="" allowed
  shift
  [ $# -gt 0 ] || fail "no archives of core's libraries given"
  allowed="^($(one_line "$ALLOWED_SYMBOLS"))"
  for archive in "$@"; do
    members+=$(ar t "$archive")$'\n'
    symbols+=$(nm -u "$archive" | awk 'NF == 2 {print $2}')$'\n'
  done
  for stem in $(sed -n 's|^//core:\(.*\)\.cc$|\1|p' "$deps"); do
    grep -qE "^${stem}(\.pic)?\.o$" <<<"$members" ||
      fail "core/$stem.cc is in deps(//core) but in none of the archives given (data of the test)"
  done
  # UBSan's vptr check compares dynamic types, so an instrumented object names the C++
  # ABI's type_info vtables; allowed only where UBSan's own hooks show it is that build.
  if grep -q '^__ubsan_' <<<"$symbols"; then
    allowed+='|^_ZTVN10__cxxabiv1[0-9]+__(class|si_class|vmi_class)_type_infoE$'
  fi
  bad=$(sort -u <<<"$symbols" | grep -v '^$' | grep -vE "$allowed" || true)
  [ -z "$bad" ] || fail "core's objects call what is not on the allowed list (OS calls, heap, streams?):" "$bad"
  echo "PASS: core's $# archives reference only the C library's string, math and snprintf functions"
}

if [ "${1:-}" = --image ]; then
  check_image "${2:?an ELF image}"
  exit 0
fi
deps=${1:?a genquery of deps(//core)}
shift
check_deps "$deps"
check_sources "$deps"
# The static archives among the libraries' outputs (a shared library's undefined symbols
# include the dynamic loader's).
archives=()
for output in "$@"; do
  case "$output" in *.a) archives+=("$output") ;; esac
done
if [ $# -gt 0 ]; then
  check_symbols "$deps" "${archives[@]}"
fi
