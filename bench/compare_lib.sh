# What the comparisons of tickbench against a bare loop share (bench/bare_compare.sh,
# bench/mpi_compare.sh source this file): the machine line, the load average, and the
# table of paired ratios (bench/paired_ratios.awk) with the overhead criterion of
# docs/overhead.md (a mean's and a p99's ratio at most 1.02, the interval's upper end at
# most 1.05); the work directory and the time limit of one run.

run_limit=300  # seconds for one run, even at 10 ms a round trip

# Sets `work` to a new private directory, removed at exit; INT and TERM exit as the
# signals would (130, 143), removing it too.
make_work_dir() {
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

# The machine the figures were taken on, as a comment line.
machine_line() {
  echo "# machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1); $(nproc) CPUs; Linux $(uname -r);" \
       "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
}

load() { cut -d' ' -f1-3 /proc/loadavg; }

# paired_table RESULTS REFERENCE LABEL FIGURES
# RESULTS: lines "tool case transport size rep mean p50 p90 p99" (µs; a figure a tool does
# not have is "-"). Prints, for each case, transport and size (in the order they first
# appear) and each of FIGURES (a space-separated subset of "mean p50 p90 p99", in that
# order), the median over the repetitions of tickbench's figure and of REFERENCE's (the
# tool in RESULTS' first column, headed LABEL), and the ratio tickbench / REFERENCE: the
# median of the paired ratios (repetition r of each) with its bootstrap 95% interval. A
# repetition that one of the two lacks, or whose reference figure is not positive, is no
# pair. Then, for the mean and the p99 among FIGURES, how many rows meet the criterion,
# naming those that do not (a row with no pairs does not).
paired_table() {
  local results=$1 reference=$2 label=$3 figures=$4
  awk -v seed=1 -v reference="$reference" -v label="$label" -v figures="$figures" \
    "$(cat "$(dirname "${BASH_SOURCE[0]}")/paired_ratios.awk")"'
  BEGIN {
    split("mean p50 p90 p99", all, " ")
    for (i = 1; i <= 4; ++i) column[all[i]] = 5 + i
    nstats = split(figures, stat, " ")
  }
  $1 == "tickbench" || $1 == reference {
    key = $2 " " $3 " " $4
    for (s = 1; s <= nstats; ++s) if ($(column[stat[s]]) != "-") value[$1, key, s, $5] = $(column[stat[s]])
    if (!(key in seen)) { seen[key] = 1; keys[++nkeys] = key }
  }
  END {
    srand(seed)
    printf "%-15s %-11s %6s %4s | %9s %9s | %6s %15s %4s\n", "case", "transport", "size B", "of",
           "tickbench", label, "ratio", "95% interval", "reps"
    for (k = 1; k <= nkeys; ++k) {
      key = keys[k]
      split(key, part, " ")
      for (s = 1; s <= nstats; ++s) {
        judged = stat[s] == "mean" || stat[s] == "p99"
        n = 0; delete r; delete tb; delete bl
        for (rep = 1; rep <= 1000; ++rep) {
          if (((("tickbench", key, s, rep) in value)) && (((reference, key, s, rep) in value)) && value[reference, key, s, rep] > 0) {
            ++n; tb[n] = value["tickbench", key, s, rep]; bl[n] = value[reference, key, s, rep]; r[n] = tb[n] / bl[n]
          }
        }
        if (n == 0) {
          printf "%-15s %-11s %6s %4s | %9s %9s | %6s %15s %4d\n", part[1], part[2], part[3], stat[s], "-", "-", "-", "-", 0
          if (judged) { ++rows[stat[s]]; missed[stat[s]] = missed[stat[s]] "\n#   " key " (no pairs)" }
          continue
        }
        bootstrap_median_interval(r, n, interval)
        ratio = median(r, n)
        printf "%-15s %-11s %6s %4s | %9.2f %9.2f | %6.3f  [%5.3f, %5.3f] %4d\n", part[1], part[2], part[3], stat[s],
               median(tb, n), median(bl, n), ratio, interval["lo"], interval["hi"], n
        if (judged) {
          ++rows[stat[s]]
          if (ratio <= 1.02 && interval["hi"] <= 1.05) ++met[stat[s]]
          else missed[stat[s]] = missed[stat[s]] sprintf("\n#   %s %s %s: %.3f [%.3f, %.3f]", part[1], part[2], part[3], ratio, interval["lo"], interval["hi"])
        }
      }
    }
    print "Round trips in us: the median over the repetitions of each run'"'"'s figure (mean: the whole loop"
    print "over its round trips; p50, p90, p99: of the round trips). ratio: the median of the paired"
    print "ratios tickbench / " label " (runs side by side), with a bootstrap 95% interval."
    for (s = 1; s <= nstats; ++s)
      if (stat[s] == "mean" || stat[s] == "p99")
        printf "# %s: %d of %d rows at most 1.02 with the interval'"'"'s upper end at most 1.05%s\n", stat[s],
               met[stat[s]] + 0, rows[stat[s]] + 0, missed[stat[s]] == "" ? "" : "; not:" missed[stat[s]]
  }' "$results"
}
