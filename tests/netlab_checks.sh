# What the network labs' end-to-end tests share (sourced by tests/netlab_e2e_test.sh and
# tests/netlab_mpi_e2e_test.sh, never run): the PASS/FAIL lines and the closing
# "N passed, N failed", the host's namespaces and links before and after, and the check
# that a lab stopped by a signal tears itself down. The caller sets `work`, a directory of
# its own.

passed=0 failed=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
finish() {
  echo "took ${SECONDS}s"
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ] && exit 0
  exit 1
}

# Namespaces and links of the host, one name a line.
lab_state() {
  ip netns list | awk '{ print "netns " $1 }'
  ip -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print "link " $2 }'
}

# Waits up to 10 s for something to run in namespace NS.
await_running_in() {
  local i
  for ((i = 0; i < 100; i++)); do
    ip netns pids "$1" 2>/dev/null | grep -q . && return
    sleep 0.1
  done
}

# Sends SIGNAL (TERM or INT) to the lab LAB (a background job), and checks that it ends
# within 10 s with 143 or 130 and leaves none of its namespaces (named *-LAB).
check_interrupted() {
  local signal=$1 lab=$2 start status=0 code left expected detail i
  start=$SECONDS
  kill -"$signal" "$lab"
  for ((i = 0; i < 100; i++)); do kill -0 "$lab" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$lab" 2>/dev/null; then
    kill -KILL "$lab"
    status=timeout
  fi
  wait "$lab"
  code=$?
  left=$(ip netns list | grep -c -- "-$lab\b")
  expected=$([ "$signal" = TERM ] && echo 143 || echo 130)
  detail="exit $code after $((SECONDS - start))s, $left namespaces left"
  if [ "$status" = 0 ] && [ "$code" = "$expected" ] && [ "$left" = 0 ]; then
    pass "interrupted by $signal: $detail"
  else
    fail "interrupted by $signal: $detail (expected exit $expected within 10 s, none left)"
  fi
}

# Compares the host's namespaces and links with $work/before (lab_state, sorted).
check_nothing_left() {
  lab_state | sort >"$work/after"
  if diff "$work/before" "$work/after" >"$work/diff"; then
    pass "nothing left: namespaces and links as before ($(grep -c . "$work/after") entries)"
  else
    fail "left behind or gone: $(tr '\n' ' ' <"$work/diff")"
  fi
}
