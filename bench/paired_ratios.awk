# Paired ratios and their bootstrap intervals, for the comparison scripts' tables
# (bench/bare_compare.sh, bench/compare.sh). A script prepends this file to its awk
# program. Plain POSIX awk (Debian's default awk is mawk); no function here recurses.
#
# A ratio of two tools is estimated from pairs: repetition r of one tool and repetition r
# of the other ran side by side, so the machine's drift between repetitions falls on both.
# The estimate is the median of the paired ratios; its 95% interval is the percentile
# bootstrap over the repetitions (2000 resamples with replacement, the 2.5% and 97.5%
# points of the resampled medians). The caller seeds rand() (srand) for reproducible
# intervals.

# Sorts a[1..n] numerically (shell sort: no recursion, quick enough for 2000 values).
function shellsort(a, n,   gap, i, j, t) {
  for (gap = int(n / 2); gap > 0; gap = int(gap / 2))
    for (i = gap + 1; i <= n; ++i)
      for (j = i; j > gap && a[j - gap] + 0 > a[j] + 0; j -= gap) { t = a[j]; a[j] = a[j - gap]; a[j - gap] = t }
}

# The median of a[1..n] (a is left as it was); -1 when n is 0.
function median(a, n,   b, i) {
  if (n == 0) return -1
  for (i = 1; i <= n; ++i) b[i] = a[i]
  shellsort(b, n)
  return n % 2 ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
}

# Sets interval["lo"] and interval["hi"] to the bootstrap 95% interval of the median of
# r[1..n] (both the median itself when n is 1).
function bootstrap_median_interval(r, n, interval,   boot, s, b, i) {
  for (b = 1; b <= 2000; ++b) {
    for (i = 1; i <= n; ++i) s[i] = r[1 + int(rand() * n)]
    boot[b] = median(s, n)
  }
  shellsort(boot, 2000)
  interval["lo"] = boot[51]
  interval["hi"] = boot[1950]
}
