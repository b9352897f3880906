#!/usr/bin/env bash
# One loop and one stamp (core/README.md): the measurement loop is core/round_trip_loop.h's
# TimedLoop and the message stamp core/message_stamp.h's, on every target. This fails when a
# second copy appears elsewhere:
#   * a clock reading stored into an array (`marks[i] = clock.NowTicks()`,
#     `starts[k] = clock.NowTicks()`), the signature of a timed loop, tiled or bracketed,
#     outside core/ (bench/ keeps the bare loop on purpose: it is the baseline the harness
#     is compared with, written without tickbench's code);
#   * the stamp's fill constant or the board's old pattern (`i * 131 + 7`), or a definition
#     of FillPattern, StampSequence, EchoStampMatches or CheckEcho, outside core/ (the host's
#     span wrappers in transport/io/message_pattern.h call core's and are allowed).
#
#   tools/check_one_core.sh            checks every .cc and .h file git knows
#   tools/check_one_core.sh FILE...    checks the files given (paths as from the top)
# Prints one line per offence and exits 1 if there is any.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.cc' '*.h' | sort -u)
fi

loop='\[[^]]+\][[:space:]]*=[[:space:]]*[A-Za-z_.>()-]*NowTicks\(\)'
stamp='0x9E3779B1|[*][[:space:]]*131[[:space:]]*[+][[:space:]]*7'
definition='^[[:space:]]*(inline[[:space:]]+)?(void|bool|MessageCheck|core::MessageCheck)[[:space:]]+(FillPattern|StampSequence|EchoStampMatches|CheckEcho)[[:space:]]*\('
status=0
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  case "$f" in
    core/* | */core/*) continue ;;
  esac
  if [[ "$f" != bench/* ]]; then
    if grep -nE "$loop" "$f" | sed "s|^|$f:|; s|$| (a second measurement loop: use core::TimedLoop or core::BracketedLoop with a trip policy)|" | grep .; then
      status=1
    fi
  fi
  if grep -nE "$stamp" "$f" | sed "s|^|$f:|; s|$| (a second stamp: use core/message_stamp.h)|" | grep .; then
    status=1
  fi
  if [[ "$f" != transport/io/message_pattern.h ]] &&
    grep -nE "$definition" "$f" | sed "s|^|$f:|; s|$| (a second stamp: use core/message_stamp.h)|" | grep .; then
    status=1
  fi
done
exit $status
