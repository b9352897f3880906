#!/usr/bin/env bash
# The comparison scripts, bench/bare_compare.sh and bench/compare.sh, run against stub
# binaries whose figures are known, so that what a script computes and passes on can be
# checked exactly:
#
#  * bare_compare.sh: for each of the four figures (mean from averaged_rtt_ns, p50, p90,
#    p99; the bare loop's from its own columns) the ratio column is the median of the
#    paired ratios, its interval lies between the smallest and largest of them; the
#    round-trip columns are medians; the closing lines count the mean and p99 rows that
#    meet the criterion (<= 1.02, upper end <= 1.05) and name those that do not;
#    each placement and mode passes the pinning and --busy_poll flags it names;
#    --against=HARNESS puts that build in the bare loop's column (and says so), and the
#    bare loop is then not run; a run that fails is left out of the pairs, not counted
#    as zero; bad options exit 2 naming the option.
#  * compare.sh: a size below 14 B runs at 14 B for every tool (sockperf's smallest
#    message), once, and the header says so; for the mean, p50, p90 and p99 the ratios
#    are the medians of the paired ratios of tickbench over sockperf's figures (avg-rtt,
#    percentiles 50, 90, 99) and, for the mean, qperf's doubled one-way latency, with
#    their intervals; the closing line counts the means at most sockperf's; bad options
#    exit 2 naming the option.
#  * bare_loop itself: a short run prints its one line (transport size mode iterations
#    median_us mean_us p90_us p99_us, the figures positive and the quantiles in order),
#    and a bad flag exits 2 naming the flag.
#
#  * mpi_compare.sh (with stub mpirun, MPI bare loop and NPmpi): each tool runs as ranks 0
#    and 1 placed by taskset on the CPUs of its case (split: --cpus' two; same: the first
#    twice, with MPI's yield when idle), in its mode; the bare-loop table's ratios are the
#    medians of the paired ratios of the four figures; NPmpi's round trip is twice the
#    one-way time its Mbps column gives, run in the blocking cases only, a mean row alone;
#    the criterion lines name the rows that miss it; --tickbench_flag reaches tickbench
#    alone; bad options exit 2 naming the option.
#
#   scripts_test.sh BARE_COMPARE COMPARE BARE_LOOP MPI_COMPARE
set -euo pipefail

bare_compare=$(realpath "$1")
compare=$(realpath "$2")
bare_loop=$(realpath "$3")
mpi_compare=$(realpath "$4")
planted=$(realpath "$5")
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/scripts_test.XXXXXX")
trap 'rm -rf "$work"' EXIT
stubs="$work/stubs"
mkdir -p "$stubs"
failures=0
checks=0

check() {  # check DESCRIPTION COMMAND...: counts a failure if COMMAND fails
  local what=$1
  shift
  checks=$((checks + 1))
  if ! "$@"; then
    echo "FAILED: $what" >&2
    failures=$((failures + 1))
  fi
}
has_line() { grep -qE -- "$2" "$1" || { echo "  no line matching '$2' in:" >&2; sed 's/^/    /' "$1" >&2; return 1; }; }
lacks_line() { ! grep -qE -- "$2" "$1" || { echo "  a line matches '$2' in:" >&2; sed 's/^/    /' "$1" >&2; return 1; }; }
exits() {  # exits CODE OUTPUT COMMAND...: COMMAND's exit code is CODE; its output to OUTPUT
  local code=$1 out=$2 got=0
  shift 2
  "$@" >"$out" 2>&1 || got=$?
  [ "$got" = "$code" ] || { echo "  exit $got, not $code: $*" >&2; sed 's/^/    /' "$out" >&2; return 1; }
}

# A stub tickbench: writes the CSV a sweep would, one row, whose per_iteration_p50_ns is
# the next of the figures given (F, in ns, one per call, cycling), averaged_rtt_ns F + 1000,
# per_iteration_p90_ns F + 500 and per_iteration_p99_ns 4000.
# Its arguments, one call a line, go to NAME.args. A figure "fail" exits 1.
make_harness() {
  local name=$1
  shift
  printf '%s\n' "$@" >"$stubs/$name.figures"
  : >"$stubs/$name.calls"
  cat >"$stubs/$name" <<EOF
#!/usr/bin/env bash
echo "\$*" >>"$stubs/$name.args"
echo x >>"$stubs/$name.calls"
n=\$(wc -l <"$stubs/$name.calls")
count=\$(wc -l <"$stubs/$name.figures")
figure=\$(sed -n "\$(( (n - 1) % count + 1 ))p" "$stubs/$name.figures")
[ "\$figure" = fail ] && { echo "stub failure" >&2; exit 1; }
transport=""
for arg in "\$@"; do case "\$arg" in --transport=*) transport=\${arg#*=} ;; esac; done
echo "transport,size_bytes,per_iteration_p50_ns,averaged_rtt_ns,per_iteration_p90_ns,per_iteration_p99_ns"
echo "\$transport,1,\$figure,\$((figure + 1000)),\$((figure + 500)),4000"
EOF
  chmod +x "$stubs/$name"
}

# A stub bare loop: prints its line, median 0.500 µs, mean 0.600, p90 0.700, p99 0.900;
# arguments to bare_loop.args.
cat >"$stubs/bare_loop" <<EOF
#!/usr/bin/env bash
echo "\$*" >>"$stubs/bare_loop.args"
echo "pipe 1 blocking 10 0.500 0.600 0.700 0.900"
EOF
chmod +x "$stubs/bare_loop"

# ---- bare_compare.sh ----------------------------------------------------------------------

# Three repetitions, ratios 1.1, 1.3 and 1.2 against the build in the bare column.
make_harness new 1100 1300 1200
make_harness old 1000
out="$work/against.out"
check "bare_compare.sh --against runs" exits 0 "$out" "$bare_compare" --reps=3 --iterations=10 \
  --warmup=1 --sizes=1 --transports=pipe --cases=same:blocking --harness="$stubs/new" \
  --against="$stubs/old" --bare="$stubs/bare_loop"
check "--against says which build is in the bare column" has_line "$out" "^# against: $stubs/old"
# Median ratio 1.2, median round trips 1.2 and 1.0 µs; the interval within [1.1, 1.3].
check "the ratio is the median of the paired ratios" \
  has_line "$out" '^same:blocking +pipe +1 +p50 \| +1\.20 +1\.00 \| +1\.200 +\[1\.[123]00, 1\.[123]00\] +3$'
# Means 2.1, 2.3, 2.2 against 2.0: ratios 1.05, 1.15, 1.10; p90 1.6, 1.8, 1.7 against 1.5.
check "the mean row compares averaged_rtt_ns" \
  has_line "$out" '^same:blocking +pipe +1 +mean \| +2\.20 +2\.00 \| +1\.100 +\[1\.(050|100|150), 1\.(050|100|150)\] +3$'
check "the p90 row compares per_iteration_p90_ns" \
  has_line "$out" '^same:blocking +pipe +1 +p90 \| +1\.70 +1\.50 \| +1\.133 +\[1\.(067|133|200), 1\.(067|133|200)\] +3$'
check "the p99 row compares per_iteration_p99_ns" \
  has_line "$out" '^same:blocking +pipe +1 +p99 \| +4\.00 +4\.00 \| +1\.000 +\[1\.000, 1\.000\] +3$'
check "a mean over 1.02 is named as not meeting the criterion" \
  has_line "$out" '^# mean: 0 of 1 rows at most 1\.02 .*; not:$'
check "the row not meeting it is named with its ratio" \
  has_line "$out" '^#   same:blocking pipe 1: 1\.100 \['
check "a p99 at 1.000 meets the criterion" has_line "$out" '^# p99: 1 of 1 rows at most 1\.02 [^;]*$'
check "--against runs the other build with the same flags" \
  bash -c "[ \"\$(sed -n 1p '$stubs/new.args')\" = \"\$(sed -n 1p '$stubs/old.args')\" ]"
check "--against does not run the bare loop" test ! -e "$stubs/bare_loop.args"

# The bare loop itself: each case's pinning and mode reach both binaries.
make_harness tb 600
rm -f "$stubs/tb.args" "$stubs/bare_loop.args"
out="$work/bare.out"
check "bare_compare.sh against the bare loop runs" exits 0 "$out" "$bare_compare" --reps=1 \
  --iterations=200 --warmup=100 --sizes=1024 --transports=udp --cpus=3,5 \
  --cases=same:blocking,split:busy_poll,same:busy_poll --harness="$stubs/tb" --bare="$stubs/bare_loop"
check "the ratio is tickbench's median over the bare loop's" \
  has_line "$out" '^split:busy_poll +udp +1024 +p50 \| +0\.60 +0\.50 \| +1\.200 +\[1\.200, 1\.200\] +1$'
check "the bare loop's mean is its sixth column" \
  has_line "$out" '^split:busy_poll +udp +1024 +mean \| +1\.60 +0\.60 \| +2\.667 '
check "the bare loop's p90 and p99 are its seventh and eighth columns" \
  bash -c "grep -qE '^split:busy_poll +udp +1024 +p90 \| +1\.10 +0\.70 ' '$out' &&
           grep -qE '^split:busy_poll +udp +1024 +p99 \| +4\.00 +0\.90 ' '$out'"
check "same places client and peer on the first CPU" \
  has_line "$stubs/bare_loop.args" '^--transport=udp --size=1024 --iterations=200 --warmup=100 --pin=3,3$'
check "split places the peer on the second CPU and busy polls" \
  has_line "$stubs/bare_loop.args" '--pin=3,5 --busy_poll$'
check "tickbench runs with the same placement and mode" has_line "$stubs/tb.args" '--pin=3,5 --busy_poll$'
check "same:busy_poll runs a hundredth of the round trips (at least 10)" \
  has_line "$stubs/bare_loop.args" '--iterations=10 --warmup=10 --pin=3,3 --busy_poll$'
check "tickbench warms up by its own rule by default (no --warmup)" \
  lacks_line "$stubs/tb.args" '--warmup'
check "tickbench reads the clock the bare loop reads, at every round trip" \
  has_line "$stubs/tb.args" '--clock=clock_gettime --reference_clock=none --batch=1'
rm -f "$stubs/tb.args"
check "--tickbench_warmup=N runs" exits 0 "$work/tbw.out" "$bare_compare" --reps=1 \
  --iterations=200 --warmup=100 --tickbench_warmup=100 --sizes=1024 --transports=udp \
  --cases=same:blocking --harness="$stubs/tb" --bare="$stubs/bare_loop"
check "--tickbench_warmup=N gives tickbench that count" \
  has_line "$stubs/tb.args" '--iterations=200 --warmup=100 --format=csv'
check "--tickbench_warmup takes default or a count" exits 2 "$work/tbw_bad.out" "$bare_compare" \
  --tickbench_warmup=soon --harness="$stubs/tb" --bare="$stubs/bare_loop"

# A failed run leaves its repetition out of the pairs.
make_harness flaky 1500 fail 1500
out="$work/flaky.out"
check "a failed run does not fail the comparison" exits 0 "$out" "$bare_compare" --reps=3 \
  --iterations=10 --warmup=1 --sizes=1 --transports=tcp --cases=split:blocking \
  --harness="$stubs/flaky" --bare="$stubs/bare_loop"
check "a failed run is left out of the pairs" \
  has_line "$out" '^split:blocking +tcp +1 +p50 \| +1\.50 +0\.50 \| +3\.000 +\[3\.000, 3\.000\] +2$'
check "a failed run is reported" has_line "$out" "failed:"

for bad in --reps=0 --cpus=1 --cases=same:spin --colour; do
  out="$work/bad.out"
  check "bare_compare.sh $bad exits 2" exits 2 "$out" "$bare_compare" "$bad" \
    --harness="$stubs/tb" --bare="$stubs/bare_loop"
  check "bare_compare.sh $bad names the option" has_line "$out" "${bad%%=*}|unknown option|unknown case"
done
check "bare_compare.sh: a missing binary exits 2" exits 2 "$out" "$bare_compare" \
  --harness="$work/none" --bare="$stubs/bare_loop"
check "bare_compare.sh: a missing binary is named" has_line "$out" "no binary at $work/none"

# ---- compare.sh ---------------------------------------------------------------------------

# Stub peer tools, first on PATH: servers wait to be stopped; sockperf's client reports a
# median RTT of 0.5 µs, a p90 of 0.7, a p99 of 0.9 and a mean of 1 µs, qperf a one-way
# latency of 0.5 µs.
cat >"$stubs/sockperf" <<EOF
#!/usr/bin/env bash
[ "\$1" = --version ] && { echo "sockperf: == version #0.0-stub =="; exit 0; }
[ "\$1" = server ] && exec sleep 600
echo "\$*" >>"$stubs/sockperf.args"
echo "sockperf: ====> avg-rtt=1.000 (std-dev=0.100)"
echo "sockperf: ---> percentile 99.000 =        0.900"
echo "sockperf: ---> percentile 90.000 =        0.700"
echo "sockperf: ---> percentile 50.000 =        0.500"
EOF
cat >"$stubs/qperf" <<EOF
#!/usr/bin/env bash
[ "\$1" = --version ] && { echo "qperf 0.0-stub"; exit 0; }
[ "\$1" = -lp ] && [ "\$#" = 2 ] && exec sleep 600
echo "\$*" >>"$stubs/qperf.args"
echo "udp_lat:"
echo "    latency  =  500 ns"
EOF
chmod +x "$stubs/sockperf" "$stubs/qperf"

make_harness peerless 700
rm -f "$stubs/peerless.args"
out="$work/compare.out"
check "compare.sh runs" exits 0 "$out" env PATH="$stubs:$PATH" "$compare" --reps=1 --seconds=1 \
  --pin=0,0 --iterations=10 --sizes=1,10,1024 --harness="$stubs/peerless"
check "compare.sh says the small sizes run at 14 B" \
  has_line "$out" '^# sizes 14,1024 \(asked: 1,10,1024\): below 14 B every tool runs at 14 B'
check "tickbench runs at 14 B" has_line "$stubs/peerless.args" '--sizes=14 '
check "tickbench does not run at the sizes below 14 B" lacks_line "$stubs/peerless.args" '--sizes=(1|10) '
check "sockperf runs at 14 B" has_line "$stubs/sockperf.args" ' -m 14 '
check "qperf runs at 14 B" has_line "$stubs/qperf.args" ' -m 14 '
check "each size runs once a repetition" \
  bash -c "[ \"\$(grep -c -- '--sizes=14 ' '$stubs/peerless.args')\" = 2 ]"  # udp, tcp
# tickbench mean 1.7 / sockperf 1.0 and qperf 2 x 0.5; p50 0.7 / 0.5; p90 1.2 / 0.7;
# p99 4.0 / 0.9.
check "the mean's ratios are tickbench over each peer" \
  has_line "$out" '^udp +14 +mean \| +1\.7 +1\.0 +1\.70 \[1\.70, 1\.70\] \| +1\.0 +1\.70 \[1\.70, 1\.70\]$'
check "the p50's ratio is tickbench over sockperf, no qperf figure" \
  has_line "$out" '^udp +14 +p50 \| +0\.7 +0\.5 +1\.40 \[1\.40, 1\.40\] \| +- +-$'
check "the p90 and p99 are sockperf's percentiles 90 and 99" \
  bash -c "grep -qE '^tcp +1024 +p90 \| +1\.2 +0\.7 +1\.71 ' '$out' && grep -qE '^tcp +1024 +p99 \| +4\.0 +0\.9 +4\.44 ' '$out'"
check "the closing line counts the means over sockperf's and names them" \
  bash -c "grep -qE '^# mean against sockperf: 0 of 4 rows at most 1\.00; not:$' '$out' &&
           grep -qE '^#   tcp 1024: 1\.70 ' '$out'"
check "no row for an asked size below 14 B" lacks_line "$out" '^(udp|tcp) +(1|10) '

# Repetitions whose tickbench figures vary, over sockperf's p50 of 0.5: udp 0.9, 0.5, 0.7
# and a failed run (paired ratios 1.8, 1.0, 1.4: median 1.4, the interval within them),
# tcp 0.9, 0.5, 0.7, 1.1 (median 0.8, paired ratios' median 1.6).
make_harness varying 900 900 500 500 700 700 fail 1100
out="$work/varying.out"
check "compare.sh with varying figures runs" exits 0 "$out" env PATH="$stubs:$PATH" "$compare" \
  --reps=4 --seconds=1 --pin=0,0 --iterations=10 --sizes=64 --harness="$stubs/varying"
check "the ratio is the median of the paired ratios, a failed run no pair" \
  has_line "$out" '^udp +64 +p50 \| +0\.7 +0\.5 +1\.40 \[1\.(00|40|80), 1\.(00|40|80)\] \|'
check "the round-trip column is the median over the repetitions" has_line "$out" '^tcp +64 +p50 \| +0\.8 +0\.5 +1\.60 '
check "the table says what its ratios are" has_line "$out" 'median of the paired ratios'

# A mean 0.4% over sockperf's prints as 1.00 but is over it: the count judges the ratio,
# not its rounded print (tickbench mean 1.004 µs: F = 4 ns, the stub's mean F + 1000).
make_harness close 4
out="$work/close.out"
check "compare.sh with a mean just over sockperf's runs" exits 0 "$out" env PATH="$stubs:$PATH" \
  "$compare" --reps=1 --seconds=1 --pin=0,0 --iterations=10 --sizes=64 --harness="$stubs/close"
check "a mean 1.004 of sockperf's is not counted as at most 1.00" \
  bash -c "grep -qE '^# mean against sockperf: 0 of 2 rows at most 1\.00; not:$' '$out' &&
           grep -qE '^#   udp 64: 1\.00 ' '$out'"

# --transports=tcp: tcp's rows alone, tickbench run for tcp only.
rm -f "$stubs/peerless.args"
out="$work/tcp_only.out"
check "compare.sh --transports=tcp runs" exits 0 "$out" env PATH="$stubs:$PATH" "$compare" \
  --reps=1 --seconds=1 --pin=0,0 --iterations=10 --sizes=64 --transports=tcp --harness="$stubs/peerless"
check "--transports=tcp: tcp rows, no udp row" \
  bash -c "grep -qE '^tcp +64 +mean ' '$out' && ! grep -qE '^udp ' '$out'"
check "--transports=tcp: tickbench runs over tcp only" lacks_line "$stubs/peerless.args" '--transport=udp'

for bad in --sizes=1,x --placement=both --pin=0 --reps=-1 --iterations=0 --fast --transports=sctp; do
  out="$work/bad.out"
  check "compare.sh $bad exits 2" exits 2 "$out" env PATH="$stubs:$PATH" "$compare" "$bad" \
    --harness="$stubs/peerless"
  check "compare.sh $bad names the option" has_line "$out" "${bad%%=*}|unknown option"
done

# ---- mpi_compare.sh -----------------------------------------------------------------------

# A stub mpirun, first on PATH: records its arguments, then runs the first rank's program
# (after "-np 1 taskset -c CPU") with its arguments, up to the ":" before the second rank.
mpi_stubs="$work/mpi_stubs"
mkdir -p "$mpi_stubs"
cat >"$mpi_stubs/mpirun" <<EOF
#!/usr/bin/env bash
[ "\$1" = --version ] && { echo "mpirun (Open MPI) 0.0-stub"; exit 0; }
echo "\$*" >>"$stubs/mpirun.args"
while [ "\$1" != taskset ]; do shift; done
shift 3
program=()
while [ "\$1" != : ]; do program+=("\$1"); shift; done
exec "\${program[@]}"
EOF
# The MPI bare loop: median 0.500 µs, mean 0.600, p90 0.700, p99 0.900.
cat >"$mpi_stubs/mpi_bare_loop" <<EOF
#!/usr/bin/env bash
echo "\$*" >>"$stubs/mpi_bare_loop.args"
echo "mpi 64 blocking 10 0.500 0.600 0.700 0.900"
EOF
# NPmpi: a one-way time of 0.5 µs at the size asked (-l), written as NetPIPE writes its
# output file (-o): bytes, Mbps (bits / 2^20 per second), seconds (to 10 ns).
cat >"$mpi_stubs/NPmpi" <<EOF
#!/usr/bin/env bash
echo "\$*" >>"$stubs/NPmpi.args"
while [ \$# -gt 0 ]; do case "\$1" in -l) size=\$2 ;; -o) out=\$2 ;; esac; shift; done
awk -v size="\$size" 'BEGIN { printf "%8d %f %12.8f\n", size, 8 * size / (0.5e-6 * 1048576), 0.5e-6 }' >"\$out"
EOF
chmod +x "$mpi_stubs"/*
make_harness mpitb 700
out="$work/mpi.out"
check "mpi_compare.sh runs" exits 0 "$out" env PATH="$mpi_stubs:$PATH" "$mpi_compare" --reps=1 \
  --iterations=20 --warmup=2 --sizes=64 --cpus=3,5 \
  --cases=split:blocking,split:busy_poll,same:blocking --harness="$stubs/mpitb" \
  --bare="$mpi_stubs/mpi_bare_loop" --npmpi="$mpi_stubs/NPmpi" --tickbench_flag=--receive_timeout=none
# tickbench: p50 0.7, mean 1.7, p90 1.2, p99 4.0 µs; the bare loop 0.5, 0.6, 0.7, 0.9.
check "the p50 row is tickbench's over the bare loop's" \
  has_line "$out" '^split:blocking +mpi +64 +p50 \| +0\.70 +0\.50 \| +1\.400 +\[1\.400, 1\.400\] +1$'
check "the mean row compares averaged_rtt_ns with the bare loop's sixth column" \
  has_line "$out" '^split:busy_poll +mpi +64 +mean \| +1\.70 +0\.60 \| +2\.833 '
check "the p90 and p99 rows are the bare loop's seventh and eighth columns" \
  bash -c "grep -qE '^same:blocking +mpi +64 +p90 \| +1\.20 +0\.70 ' '$out' &&
           grep -qE '^same:blocking +mpi +64 +p99 \| +4\.00 +0\.90 ' '$out'"
check "NPmpi's round trip is twice its one-way time" \
  has_line "$out" '^split:blocking +mpi +64 +mean \| +1\.70 +1\.00 \| +1\.700 +\[1\.700, 1\.700\] +1$'
check "NPmpi's table has no busy-poll row" \
  bash -c "[ \"\$(grep -cE '^split:busy_poll +mpi +64 +mean' '$out')\" = 1 ]"
check "NPmpi runs in the blocking cases only" bash -c "[ \"\$(wc -l <'$stubs/NPmpi.args')\" = 2 ]"
check "NPmpi runs the size asked, a fixed count of round trips" \
  has_line "$stubs/NPmpi.args" '^-l 64 -u 64 -p 0 -n 20 -o '
check "the mean rows that miss the criterion are named" \
  bash -c "grep -qE '^# mean: 0 of 3 rows at most 1\.02 .*; not:$' '$out' &&
           grep -qE '^#   split:busy_poll mpi 64: 2\.833 ' '$out'"
check "split places rank 0 on the first CPU and rank 1 on the second" \
  has_line "$stubs/mpirun.args" '^--allow-run-as-root --bind-to none --mca btl self,vader -np 1 taskset -c 3 \S+/mpitb .* : -np 1 taskset -c 5 '
check "same places both ranks on the first CPU, yielding when idle" \
  has_line "$stubs/mpirun.args" 'mpi_yield_when_idle 1 -np 1 taskset -c 3 \S+/mpitb .* : -np 1 taskset -c 3 '
check "busy_poll reaches both the bare loop and tickbench" \
  bash -c "grep -qE -- '--size=64 --iterations=20 --warmup=2 --busy_poll$' '$stubs/mpi_bare_loop.args' &&
           grep -qE -- '--busy_poll --receive_timeout=none$' '$stubs/mpitb.args'"
check "--tickbench_flag reaches tickbench, not the bare loop" \
  bash -c "grep -q -- '--receive_timeout=none' '$stubs/mpitb.args' &&
           ! grep -q -- '--receive_timeout' '$stubs/mpi_bare_loop.args'"
check "tickbench reads the clock the MPI bare loop reads, at every round trip" \
  has_line "$stubs/mpitb.args" '--clock=clock_gettime --reference_clock=none --batch=1'
check "tickbench against the bare loop: one run of per-round-trip readings" \
  has_line "$stubs/mpitb.args" ' --runs=1 .*--batch=1 '
check "tickbench against NPmpi: three runs of the averaged figure alone, blocking only" \
  bash -c "[ \"\$(grep -cE -- ' --runs=3 .*--batch=20 ' '$stubs/mpitb.args')\" = 2 ]"

# As NPmpi measures (--runs=3), three runs of means 1.9, 1.4 and 1.6 µs; one run (1.9)
# otherwise: NPmpi (the lowest of its trials) is compared with the lowest of the three.
cat >"$stubs/mpitb3" <<EOF
#!/usr/bin/env bash
echo "transport,size_bytes,per_iteration_p50_ns,averaged_rtt_ns,per_iteration_p90_ns,per_iteration_p99_ns"
means=1900
case " \$* " in *" --runs=3 "*) means="1900 1400 1600" ;; esac
for mean in \$means; do echo "mpi,64,700,\$mean,1200,4000"; done
EOF
chmod +x "$stubs/mpitb3"
out="$work/mpi3.out"
check "mpi_compare.sh with three runs a job runs" exits 0 "$out" env PATH="$mpi_stubs:$PATH" \
  "$mpi_compare" --reps=1 --iterations=20 --warmup=2 --sizes=64 --cases=split:blocking \
  --harness="$stubs/mpitb3" --bare="$mpi_stubs/mpi_bare_loop" --npmpi="$mpi_stubs/NPmpi"
check "against the bare loop: the per-round-trip run's mean" \
  has_line "$out" '^split:blocking +mpi +64 +mean \| +1\.90 +0\.60 \| +3\.167 '
check "against NPmpi: the lowest of the three runs' means" \
  has_line "$out" '^split:blocking +mpi +64 +mean \| +1\.40 +1\.00 \| +1\.400 '

for bad in --reps=0 --cpus=1 --cases=same:spin --sizes=1,x --iterations=0 --tickbench_flag=x \
    --npmpi="$work/none" --colour; do
  out="$work/bad.out"
  check "mpi_compare.sh $bad exits 2" exits 2 "$out" env PATH="$mpi_stubs:$PATH" "$mpi_compare" \
    "$bad" --harness="$stubs/mpitb" --bare="$mpi_stubs/mpi_bare_loop"
  check "mpi_compare.sh $bad names the option" has_line "$out" "${bad%%=*}|unknown option"
done

# --help prints the whole header comment, up to its last line, and none of the code.
for script in "$bare_compare" "$compare" "$mpi_compare"; do
  out="$work/help.out"
  check "$(basename "$script") --help exits 0" exits 0 "$out" "$script" --help
  last=$(awk 'NR > 1 && !/^#/ { exit } NR > 1 { line = $0 } END { print line }' "$script")
  check "$(basename "$script") --help ends with the header's last line" \
    bash -c "[ \"\$(tail -1 '$out')\" = \"\$1\" ]" _ "$last"
  check "$(basename "$script") --help prints only comment lines" lacks_line "$out" '^[^#]'
done

out="$work/bare_loop.out"
check "bare_loop runs a short pipe loop" exits 0 "$out" "$bare_loop" --transport=pipe --size=3 \
  --iterations=50 --warmup=5
check "bare_loop prints transport size mode iterations median_us mean_us p90_us p99_us" \
  has_line "$out" '^pipe 3 blocking 50( [0-9]+\.[0-9]+){4}$'
# (Each figure above 0: a regular expression that wanted a non-zero digit failed on a
# round trip of exactly 5.000 us.)
check "bare_loop's figures are above 0" awk '{ exit !($5 > 0 && $6 > 0 && $7 > 0 && $8 > 0) }' "$out"
check "bare_loop's quantiles are in order (p50 <= p90 <= p99)" \
  awk '{ exit !($5 <= $7 && $7 <= $8) }' "$out"
for bad in --transport=tcp4 --size=0 --size=65537 --iterations=0 --warmup=-1 --pin=0,x; do
  out="$work/bad.out"
  check "bare_loop $bad exits 2" exits 2 "$out" "$bare_loop" "$bad"
  check "bare_loop $bad names the flag" has_line "$out" "^bare_loop: ${bad%%=*}|^bare_loop: .* ${bad%%=*} "
done

# planted.sh against a harness stub whose --explain reports known jumps: for a 4096-byte
# pipe, one at 4096 named, one at 8192 found but not named, one false at 13000, none at 12288.
cat >"$stubs/planted_harness" <<'STUB'
#!/usr/bin/env bash
echo "$*" >>"$(dirname "$0")/planted.args"
echo "Steps in the averaged RTT (segmented regression, breakpoints chosen by BIC):"
echo "  jump up between 4096 and 5120 bytes: +36500 ± 3100 ns (21.0 standard errors); near page size, pipe capacity (F_GETPIPE_SZ)"
echo "  jump up between 8192 and 9216 bytes: +36100 ± 4600 ns (15.7 standard errors)"
echo "  jump down between 12800 and 13312 bytes: -900 ± 100 ns (9.0 standard errors)"
STUB
chmod +x "$stubs/planted_harness"
out="$work/planted.out"
check "planted.sh runs" exits 0 "$out" "$planted" --harness="$stubs/planted_harness" \
  --configs=pipe:4096
check "planted.sh counts found, named and false steps" \
  has_line "$out" '^pipe:4096 +4096 +3 +2 +1 +1$'
check "planted.sh sweeps C/4 to 4C with the knob" \
  has_line "$stubs/planted.args" '--transport=pipe --pipe_size=4096 --sizes=1024:16384:1024'
check "planted.sh refuses a transport without a knob" exits 2 "$work/planted_bad.out" "$planted" \
  --harness="$stubs/planted_harness" --configs=udp:1500

echo "$((checks - failures)) of $checks checks passed"
[ "$failures" = 0 ]
