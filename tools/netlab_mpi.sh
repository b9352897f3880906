#!/usr/bin/env bash
# An MPI network lab on one machine: HOSTS network namespaces (3 by default) joined by a
# bridge, each host with its own name, Open MPI's daemons started in them by an rsh agent
# (tools/netlab_rsh_agent.sh), and mpirun run on the first host with the lab's hostfile and
# the MCA settings the lab needs. Everything it makes is torn down when it ends: on
# success, on failure, and on Ctrl-C or TERM.
#
# Usage: tools/netlab_mpi.sh [options] -- MPIRUN_ARGS...       (as root)
#   --hosts=N        hosts (namespaces), one slot each (default 3; 2..9)
#   --rate=RATE      limit the last host's link to RATE (tc syntax: 800kbit), one token
#                    bucket for both directions, so that every round trip with that host
#                    pays the serialization of both its packets: 2 x 8 bits / RATE per byte
#                    of frame (a 64-byte UDP message is a 106-byte frame: 2.1 ms at 800kbit)
#   --timeout=SECS   longest mpirun may run (default 300)
#   -v, --verbose    print the mpirun command line
#   -h, --help       this text
# MPIRUN_ARGS follow mpirun's own options, for example:
#   tools/netlab_mpi.sh --rate=800kbit -- -np 3 bazel-bin/harness/harness \
#       --experiment=matrix --transport=udp
# The hosts are named tbh1-ID .. tbhN-ID (ID: this script's PID), which is also their
# processor name under MPI; NETLAB_HOSTS holds the names, space-separated, in mpirun's
# environment. The harness must be built with --config=mpi.
#
# mpirun gets: --hostfile (one slot a host), --mca plm_rsh_agent (the agent), the TCP BTL
# and its out-of-band channel on the lab's network only (--mca btl tcp,self,
# btl_tcp_if_include and oob_tcp_if_include 10.199.1.0/24, btl_tcp_disable_family 6), and
# --bind-to none: every host's daemon would bind its first rank to core 0, and the hosts
# share this machine's CPUs, so two ranks would share one core and a rank spinning in a
# receive would hold it from the rank it waits for until the scheduler's next tick
# (milliseconds; docs/remote.md, "MPI across hosts").
# Exit status: mpirun's; 1 when the lab cannot be built; 2 for bad options; 130/143 when
# interrupted.
#
# Addresses: 10.199.1.1 .. 10.199.1.N /24 exist only inside the namespaces, which have no
# other interface and no route out; the bridge lives in a namespace of its own. Several
# labs can run at once: names carry the script's PID.
set -uo pipefail

netlab_name=netlab_mpi
# shellcheck source=tools/netlab_lib.sh
source "$(dirname "$0")/netlab_lib.sh"
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

readonly network=10.199.1 prefix_len=24 switch_ns="tbsw-$$" mtu=1500
agent="$(cd "$(dirname "$0")" && pwd)/netlab_rsh_agent.sh"
hosts=3 rate="" run_timeout=300 verbose=0
while [ $# -gt 0 ]; do
  case "$1" in
    --hosts=*) hosts="${1#*=}" ;;
    --rate=*) rate="${1#*=}" ;;
    --timeout=*) run_timeout="${1#*=}" ;;
    -v|--verbose) verbose=1 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    *) netlab_die "unknown option '$1' (allowed: --hosts, --rate, --timeout, --verbose, --help)" 2 ;;
  esac
  shift
done
[ $# -gt 0 ] || netlab_die "no mpirun arguments after '--' (see --help)" 2
[[ "$hosts" =~ ^[2-9]$ ]] || netlab_die "--hosts: '$hosts' is not 2..9" 2
netlab_check_rate --rate "$rate"
[[ "$run_timeout" =~ ^[0-9]+$ ]] && [ "$run_timeout" -ge 1 ] ||
  netlab_die "--timeout: '$run_timeout' is not a whole number of seconds" 2
[ "$(id -u)" -eq 0 ] || netlab_die "must run as root (it creates network namespaces)"
for tool in ip tc timeout unshare hostname mpirun; do
  command -v "$tool" >/dev/null ||
    netlab_die "needs '$tool' (Debian: iproute2, coreutils, util-linux, hostname, openmpi-bin)"
done
[ -x "$agent" ] || netlab_die "the rsh agent $agent is missing or not executable"

work=$(mktemp -d) || netlab_die "mktemp failed"
mpirun_pid=""

cleanup() {
  local status=$?
  trap '' INT TERM  # a second Ctrl-C must not cut the tear-down short
  [ -n "$mpirun_pid" ] && netlab_stop_process "$mpirun_pid"
  netlab_delete_namespaces
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

names=()
netlab_add_namespace "$switch_ns"
netlab_run ip -n "$switch_ns" link add br0 type bridge
netlab_run ip -n "$switch_ns" link set br0 up
for ((i = 1; i <= hosts; i++)); do
  host="tbh$i-$$"
  names+=("$host")
  netlab_add_namespace "$host"
  # eth0 in the host, port pI on the bridge: both made inside their namespaces.
  netlab_add_veth "$host" eth0 "$switch_ns" "p$i" "$mtu"
  netlab_run ip -n "$switch_ns" link set "p$i" master br0
  netlab_run ip -n "$switch_ns" link set "p$i" up
  netlab_run ip -n "$host" addr add "$network.$i/$prefix_len" dev eth0
  netlab_run ip -n "$host" link set eth0 up
  echo "$host slots=1" >>"$work/hostfile"
done
[ -n "$rate" ] && netlab_shape_link "${names[-1]}" eth0 "$rate" "$mtu" link ifb0

command=(mpirun --allow-run-as-root --hostfile "$work/hostfile" --bind-to none
  --mca plm_rsh_agent "$agent"
  --mca btl tcp,self --mca btl_tcp_if_include "$network.0/$prefix_len"
  --mca oob_tcp_if_include "$network.0/$prefix_len" --mca btl_tcp_disable_family 6
  "$@")
[ "$verbose" -eq 1 ] && echo "netlab_mpi: on ${names[0]}: ${command[*]}" >&2
# mpirun's words are the user's: run as given (the agent's second stage names the host).
NETLAB_HOSTS="${names[*]}" timeout "$run_timeout" \
  ip netns exec "${names[0]}" unshare --uts -- "$agent" --named "${names[0]}" "${command[@]}" &
mpirun_pid=$!
# `wait` (unlike a foreground command) returns at once when INT or TERM arrives.
wait "$mpirun_pid"
status=$?
mpirun_pid=""
[ "$status" -eq 124 ] && echo "netlab_mpi: mpirun ran past --timeout=${run_timeout}s" >&2
exit "$status"
