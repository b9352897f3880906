#!/usr/bin/env bash
# Code size limits outside tests: no C++ source file over 400 lines, no function over 60 lines;
# and everywhere, no folder over 25 source files (checked when no FILE is given).
#
#   tools/check_sizes.sh            checks every .cc and .h file git knows (tracked or new)
#   tools/check_sizes.sh -v         also lists the exceptions and their reasons
#   tools/check_sizes.sh FILE...    checks the files given
#
# An exception is a one-line reason among the first 30 lines of the file:
#   // Over 400 lines because <reason>
#   // <Function> over 60 lines because <reason>      (the name as written before its "(",
#                                                     with or without its Class:: prefix)
# Tests are not checked: *_test.cc and everything under tests/.
#
# A function is a brace block opened outside any function (namespaces, extern blocks and
# class bodies do not count as enclosing), after a header with parentheses and no '=' at the
# top level; its length runs from the header's first line to the closing brace. Comments,
# string and character literals are skipped first. It is an estimate: a macro that opens
# braces would confuse it; none is used so.
#
# Prints one line per offender ("file: N lines" / "file:line: Name is N lines") and exits 1
# if any has no reason; exits 0 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

verbose=0
if [ "${1:-}" = -v ]; then
  verbose=1
  shift
fi
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.cc' '*.h' |
    grep -vE '(^|/)tests/|_test\.cc$' | sort -u)
fi

status=0
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  awk -v file="$f" -v verbose="$verbose" -v max_file=400 -v max_fn=60 '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    # The name called in a function header: the identifier before the first top-level "(".
    function fn_name(h,   i, c, name) {
      for (i = 1; i <= length(h); i++) {
        c = substr(h, i, 1)
        if (c == "(") { name = substr(h, 1, i - 1); break }
      }
      name = trim(name)
      sub(/.*[ \t*&>]/, "", name)  # drop the return type
      return name
    }
    # Whether a header (code since the last ; { or } outside functions) opens a function.
    function is_function(h,   i, c, depth, seen_paren) {
      if (h ~ /^(namespace|extern)([ \t]|$)/) return 0
      depth = 0; seen_paren = 0
      for (i = 1; i <= length(h); i++) {
        c = substr(h, i, 1)
        if (c == "(") { depth++; seen_paren = 1 }
        else if (c == ")") depth--
        else if (c == "=" && depth == 0 && substr(h, 1, i) !~ /operator[ \t]*[-+*\/%^&|<>!=]*=$/)
          return 0
      }
      if (!seen_paren) return 0
      if (h ~ /^(template[ \t]*<.*>[ \t]*)?(class|struct|union|enum)[ \t]/ && h !~ /\)[^(]*$/)
        return 0
      return 1
    }
    function is_scope(h) {  # braces whose contents are still "outside any function"
      return h ~ /^(namespace|extern)([ \t]|$)/ ||
             h ~ /^(template[ \t]*<.*>[ \t]*)?(class|struct|union)[ \t]/
    }
    function report_pending() {
      if (pending_name == "") return
      if (pending_len > max_fn) {
        if ((pending_name in exempt) || (short_name(pending_name) in exempt)) {
          if (verbose) printf "%s:%d: %s is %d lines (exempt: %s)\n", file, pending_line, \
              pending_name, pending_len, exempt_reason[pending_name in exempt ? \
              pending_name : short_name(pending_name)]
        } else {
          printf "%s:%d: %s is %d lines (limit %d)\n", file, pending_line, pending_name, \
              pending_len, max_fn
          bad = 1
        }
      }
      pending_name = ""
    }
    function short_name(n) { sub(/.*::/, "", n); return n }
    BEGIN { in_comment = 0; depth = 0; fn_depth = 0; header = ""; header_line = 0; bad = 0 }
    NR <= 30 && /^\/\/ Over 400 lines because ./ { file_reason = $0 }
    NR <= 30 && /^\/\/ [A-Za-z_:~]+ over 60 lines because ./ {
      exempt[$2] = 1; exempt_reason[$2] = $0
    }
    {
      line = $0
      if (!in_comment && line ~ /^[ \t]*#/) {  # preprocessor lines, with continuations
        continued = (line ~ /\\$/)
        next
      }
      if (continued) { continued = (line ~ /\\$/); next }
      n = length(line)
      for (i = 1; i <= n; i++) {
        c = substr(line, i, 1)
        if (in_comment) {
          if (c == "*" && substr(line, i + 1, 1) == "/") { in_comment = 0; i++ }
          continue
        }
        if (c == "/" && substr(line, i + 1, 1) == "/") break
        if (c == "/" && substr(line, i + 1, 1) == "*") { in_comment = 1; i++; continue }
        if (c == "\"" || (c == "\x27" && substr(line, i - 1, 1) !~ /[0-9A-Fa-f]/)) {
          if (c == "\"" && substr(line, i - 1, 1) == "R") {  # raw string on one line
            rest = substr(line, i + 1)
            j = index(rest, ")\"")
            i = (j > 0) ? i + j + 1 : n
            c = "\""
          } else {
            q = c
            for (i++; i <= n; i++) {
              d = substr(line, i, 1)
              if (d == "\\") { i++; continue }
              if (d == q) break
            }
          }
          if (fn_depth == 0) header = header "\"\""
          continue
        }
        if (c == "{") {
          if (fn_depth > 0) { fn_depth++; continue }
          h = trim(header)
          if (pending_name != "" && (h == "" || h ~ /^,/)) {
            # A brace initializer in a constructor initializer list closed; this continues.
            fn_depth = 1; fn_line = pending_line; fn_nm = pending_name; pending_name = ""
          } else if (is_function(h)) {
            report_pending()
            fn_depth = 1; fn_line = header_line; fn_nm = fn_name(h)
          } else if (is_scope(h)) {
            report_pending()
            depth++
          } else {  # an initializer, an enum: skipped whole
            report_pending()
            fn_depth = 1; fn_line = 0
          }
          header = ""; header_line = 0
          continue
        }
        if (c == "}") {
          if (fn_depth > 0) {
            fn_depth--
            if (fn_depth == 0) {
              if (fn_line > 0) {
                pending_name = fn_nm; pending_line = fn_line; pending_len = NR - fn_line + 1
              }
              header = ""; header_line = 0
            }
            continue
          }
          report_pending()
          if (depth > 0) depth--
          header = ""; header_line = 0
          continue
        }
        if (fn_depth > 0) continue
        if (c == ";") { report_pending(); header = ""; header_line = 0; continue }
        if (c !~ /[ \t]/ && header_line == 0) header_line = NR
        header = header c
      }
      if (fn_depth == 0) header = header " "
    }
    END {
      report_pending()
      if (NR > max_file) {
        if (file_reason != "") {
          if (verbose) printf "%s: %d lines (exempt: %s)\n", file, NR, file_reason
        } else {
          printf "%s: %d lines (limit %d)\n", file, NR, max_file
          bad = 1
        }
      }
      exit bad
    }
  ' "$f" || status=1
done
# No folder holds more than 25 source files (.cc, .h, .c, .S; tests included): a folder
# that grows past it is split along its parts, as harness/ and transport/ were.
max_folder=25
if [ $# -eq 0 ]; then
  while read -r count dir; do
    if [ "$count" -gt "$max_folder" ]; then
      echo "$dir/: $count source files (limit $max_folder)"
      status=1
    fi
  done < <(git ls-files --cached --others --exclude-standard -- '*.cc' '*.h' '*.c' '*.S' |
    xargs -r -n1 dirname | sort | uniq -c)
fi
exit "$status"
