#!/usr/bin/env bash
# Keeps Bazel's disk cache (.bazelrc: --disk_cache) bounded: Bazel 4 never deletes from it.
# Deletes the entries not read for DAYS days, then, while the cache is over its size limit,
# the least recently read ones. Entries are whole files, so a deleted one is only a miss
# for a later build (which rebuilds it), never a wrong result.
#
#   tools/prune_disk_cache.sh [DIR]     default: ~/.cache/tickbench/bazel-disk
#
# Environment: TICKBENCH_DISK_CACHE_GB, the size limit (default 20); TICKBENCH_DISK_CACHE_DAYS,
# the age limit (default 14). Reads are seen through the files' access times, which the
# kernel updates at least once a day (relatime), enough for limits in days.
# Prints what it deleted and what is left; exits 2 on a bad option, 0 otherwise.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
  -*) echo "prune_disk_cache.sh: unknown option '$1' (allowed: DIR, --help)" >&2; exit 2 ;;
esac
dir=${1:-$HOME/.cache/tickbench/bazel-disk}
limit_gb=${TICKBENCH_DISK_CACHE_GB:-20}
days=${TICKBENCH_DISK_CACHE_DAYS:-14}
for value in "$limit_gb" "$days"; do
  if ! [[ "$value" =~ ^[1-9][0-9]*$ ]]; then
    echo "prune_disk_cache.sh: TICKBENCH_DISK_CACHE_GB and _DAYS take whole numbers above 0, not '$value'" >&2
    exit 2
  fi
done
if [ ! -d "$dir" ]; then
  echo "prune_disk_cache.sh: no disk cache at $dir; nothing to do"
  exit 0
fi

old=$(find "$dir" -type f -atime "+$days" -print -delete | wc -l)
limit=$((limit_gb * 1024 * 1024 * 1024))
size=$(du -sb "$dir" | cut -f1)
evicted=0
if [ "$size" -gt "$limit" ]; then
  # Oldest read first: "ATIME SIZE PATH" lines; delete until under 90% of the limit.
  target=$((limit / 10 * 9))
  while read -r _ bytes path; do
    [ "$size" -le "$target" ] && break
    rm -f -- "$path"
    size=$((size - bytes))
    evicted=$((evicted + 1))
  done < <(find "$dir" -type f -printf '%A@ %s %p\n' | sort -n)
fi
echo "prune_disk_cache.sh: $dir: $old entries older than $days days and $evicted over ${limit_gb} GB deleted; $((size / 1024 / 1024)) MB left"
