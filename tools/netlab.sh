#!/usr/bin/env bash
# A two-host network lab on one machine: two network namespaces joined by a veth pair,
# tickbench --role=server in one, a client command in the other. Everything it makes is
# torn down when it ends: on success, on failure, and on Ctrl-C or TERM.
#
# Usage: tools/netlab.sh [options] -- CLIENT_COMMAND [ARGS...]     (as root)
#   --tickbench=PATH  the tickbench binary the server runs (default: bazel-bin/harness/harness
#                     of this checkout); build it first with `bazel build //harness`
#   --rate=RATE       limit the link to RATE (tc syntax: 10mbit, 500kbit), as --rate-mode says
#   --rate-mode=MODE  link (default): one tc tbf token bucket for both directions, so that a
#                       round trip pays the serialization of both its packets, as on a real
#                       link of RATE: 2 x 8 bits / RATE per byte of message (1.6 us at 10mbit);
#                     shaper: a tbf on each veth end. In a ping-pong each direction's bucket
#                       refills while the other direction's packet waits, so a round trip
#                       pays about one serialization: 8 bits / RATE per byte (0.8 us)
#   --mtu=BYTES       MTU of the veth pair (default 1500, as Ethernet; 68..65535)
#   --port=PORT       the server's control port (default 7478; data uses PORT+1)
#   --timeout=SECS    longest the client command may run (default 300)
#   -v, --verbose     print the server's log even when the client succeeds
#   -h, --help        this text
# In CLIENT_COMMAND, {peer} is replaced by the server's ADDR:PORT, which is also in the
# environment as NETLAB_PEER. Example:
#   tools/netlab.sh --rate=10mbit -- bazel-bin/harness/harness --role=client \
#       --peer={peer} --transport=udp --experiment=sweep --sizes=100:1400:100
# Exit status: the client's; 1 when the lab cannot be built or the server did not stop
# cleanly (exit 0 on SIGTERM); 2 for bad options; 130/143 when interrupted.
#
# Addresses: 10.199.0.1/30 (client side) and 10.199.0.2/30 (server side) exist only
# inside the two namespaces, which have no other interface and no route out, so nothing
# but the lab's own server can be reached from the client's namespace, whatever addresses
# the host uses. Several labs can run at once: names carry the script's PID.
set -uo pipefail

readonly client_ns="tbns-a-$$" server_ns="tbns-b-$$"
readonly client_if="tbva-$$" server_if="tbvb-$$" shared_if="tbif-$$"
readonly client_ip=10.199.0.1 server_ip=10.199.0.2 prefix_len=30

netlab_name=netlab
# shellcheck source=tools/netlab_lib.sh
source "$(dirname "$0")/netlab_lib.sh"
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
die() { netlab_die "$@"; }

tickbench="$(cd "$(dirname "$0")/.." && pwd)/bazel-bin/harness/harness"
rate="" rate_mode=link mtu=1500 port=7478 client_timeout=300 verbose=0
while [ $# -gt 0 ]; do
  case "$1" in
    --tickbench=*) tickbench="${1#*=}" ;;
    --rate=*) rate="${1#*=}" ;;
    --rate-mode=*) rate_mode="${1#*=}" ;;
    --mtu=*) mtu="${1#*=}" ;;
    --port=*) port="${1#*=}" ;;
    --timeout=*) client_timeout="${1#*=}" ;;
    -v|--verbose) verbose=1 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    *) echo "netlab: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ $# -gt 0 ] || die "no client command after '--' (see --help)" 2
netlab_check_rate --rate "$rate"
[[ "$rate_mode" =~ ^(link|shaper)$ ]] || die "--rate-mode: '$rate_mode' is not link or shaper" 2
[[ "$mtu" =~ ^[0-9]+$ ]] && [ "$mtu" -ge 68 ] && [ "$mtu" -le 65535 ] ||
  die "--mtu: '$mtu' is not 68..65535" 2
[[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65534 ] ||
  die "--port: '$port' is not 1..65534" 2
[[ "$client_timeout" =~ ^[0-9]+$ ]] && [ "$client_timeout" -ge 1 ] ||
  die "--timeout: '$client_timeout' is not a whole number of seconds" 2
[ "$(id -u)" -eq 0 ] || die "must run as root (it creates network namespaces)"
[ -x "$tickbench" ] ||
  die "--tickbench: '$tickbench' is not an executable; run 'bazel build //harness'"
for tool in ip timeout ${rate:+tc}; do
  command -v "$tool" >/dev/null || die "needs '$tool' (Debian: iproute2, coreutils)"
done

peer="$server_ip:$port"
server_log=$(mktemp) || die "mktemp failed"
server_pid="" client_pid=""

cleanup() {
  local status=$? server_status=0
  trap '' INT TERM  # a second Ctrl-C must not cut the tear-down short
  [ -n "$client_pid" ] && netlab_stop_process "$client_pid"
  if [ -n "$server_pid" ]; then
    netlab_stop_process "$server_pid"
    server_status=$?
    if [ "$server_status" -ne 0 ] && [ "$status" -eq 0 ]; then
      echo "netlab: the server did not stop cleanly (exit $server_status)" >&2
      status=1
    fi
  fi
  netlab_delete_namespaces
  if [ "$status" -ne 0 ] || [ "$verbose" -eq 1 ]; then
    sed 's/^/netlab: server: /' "$server_log" >&2
  fi
  rm -f "$server_log"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

run() { netlab_run "$@"; }

for ns in "$client_ns" "$server_ns"; do netlab_add_namespace "$ns"; done
# Both ends are created inside their namespaces, so no interface ever exists on the host.
netlab_add_veth "$client_ns" "$client_if" "$server_ns" "$server_if" "$mtu"
run ip -n "$client_ns" addr add "$client_ip/$prefix_len" dev "$client_if"
run ip -n "$server_ns" addr add "$server_ip/$prefix_len" dev "$server_if"
run ip -n "$client_ns" link set "$client_if" up
run ip -n "$server_ns" link set "$server_if" up
if [ -n "$rate" ]; then
  if [ "$rate_mode" = link ]; then
    # Both directions through one bucket: every packet leaving or entering the client's
    # veth end is redirected through an ifb device that holds the tbf.
    netlab_shape_link "$client_ns" "$client_if" "$rate" "$mtu" link "$shared_if"
  else
    netlab_shape_link "$client_ns" "$client_if" "$rate" "$mtu" shaper "$server_ns" "$server_if"
  fi
fi

# `ip netns exec` execs the command, so $! is the server itself.
ip netns exec "$server_ns" "$tickbench" --role=server --listen="$peer" 2>"$server_log" &
server_pid=$!
for ((i = 0; i < 100; i++)); do  # up to 10 s for the server to listen
  grep -q "listening on" "$server_log" && break
  kill -0 "$server_pid" 2>/dev/null || die "the server did not start"
  sleep 0.1
done
grep -q "listening on" "$server_log" || die "the server did not listen within 10 s"

command=()
for arg in "$@"; do command+=("${arg//\{peer\}/$peer}"); done
NETLAB_PEER="$peer" ip netns exec "$client_ns" timeout "$client_timeout" "${command[@]}" &
client_pid=$!
# `wait` (unlike a foreground command) returns at once when INT or TERM arrives.
wait "$client_pid"
client_status=$?
client_pid=""
[ "$client_status" -eq 124 ] && echo "netlab: the client ran past --timeout=${client_timeout}s" >&2
exit "$client_status"
