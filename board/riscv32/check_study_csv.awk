# Checks a study CSV against the tick theory, by column name, one line per row:
#   * the averaged figure is within its bound of the truth: |averaged - truth| <=
#     total_bound_ns (the sum of its terms, core/study_columns.h, on the host and the
#     boards alike), and averaged_within_bound is 1;
#   * the share of single round trips that read 0 is within (1 + (2r + w)/T)/N of
#     1 - d/T, with d the reference's mean round trip, T the tick, r the reference's
#     resolution (reference_bound_ns x N) and w the pairing skew, where every round trip is
#     shorter than T.
# Works on the host's study CSV (--experiment=study) and on a board's, '#' lines aside.
#
#   awk -F, -v label=TEXT -f check_study_csv.awk FILE.csv      exit 1 if any row fails
/^#/ { next }
!header {
  for (i = 1; i <= NF; i++) col[$i] = i
  header = 1
  next
}
function v(name) { return $(col[name]) + 0 }
function abs(x) { return x < 0 ? -x : x }
{
  rows++
  T = v("resolution_ns"); N = v("iterations"); d = v("per_iteration_truth_ns")
  w = v("pair_skew_ns")
  r = v("reference_bound_ns") * N
  bound = v("total_bound_ns")
  error = abs(v("averaged_ns") - v("truth_ns"))
  predicted = 1 - d / T
  zero_bound = (1 + (2 * r + w) / T) / N
  zero_error = abs(v("zero_fraction") - predicted)
  printf "%s %s %s B: averaged %.3f us, truth %.3f us, error %.3f us (bound %.3f us); zero %.6f, 1 - d/T %.6f (bound %.6f)\n",
         label, $(col["clock"]), $(col["size_bytes"]), v("averaged_ns") / 1e3, v("truth_ns") / 1e3,
         error / 1e3, bound / 1e3, v("zero_fraction"), predicted, zero_bound
  if (!(error <= bound) || v("averaged_within_bound") != 1) { print "FAIL: " label " averaged outside its bound"; bad++ }
  if (!(d < T)) { print "FAIL: " label " a round trip of " d " ns is not shorter than the tick"; bad++ }
  else if (!(zero_error < zero_bound)) { print "FAIL: " label " zero share outside (1 + (2r + w)/T)/N of 1 - d/T"; bad++ }
}
END {
  if (rows == 0) { print "FAIL: " label " no rows"; bad++ }
  exit bad > 0
}
