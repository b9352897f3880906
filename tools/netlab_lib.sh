# What the network labs share (sourced by tools/netlab.sh and tools/netlab_mpi.sh, never
# run): making namespaces and the links between them, shaping a link with tc, stopping what
# was started, and tearing every namespace down again. The caller sets `netlab_name` (the
# prefix of its messages) and traps EXIT to call netlab_delete_namespaces.
#
# Every namespace made is recorded in `netlab_namespaces`; netlab_delete_namespaces kills
# whatever still runs inside them (it is the lab's own) and deletes them. No interface is
# ever made outside a lab namespace, so nothing is left on the host when they are gone.

netlab_namespaces=()

netlab_die() { echo "${netlab_name:-netlab}: $1" >&2; exit "${2:-1}"; }
netlab_run() { "$@" || netlab_die "failed: $*"; }

# Ends a process we started: TERM, up to 3 s to go, then KILL. Returns its exit status.
netlab_stop_process() {
  local pid=$1 i
  kill -TERM "$pid" 2>/dev/null
  for ((i = 0; i < 30; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}

# A new namespace NAME with its loopback up.
netlab_add_namespace() {
  netlab_run ip netns add "$1"
  netlab_namespaces+=("$1")
  netlab_run ip -n "$1" link set lo up
}

# A veth pair, both ends made inside their namespaces: NS_A IF_A NS_B IF_B MTU.
netlab_add_veth() {
  netlab_run ip link add "$2" netns "$1" mtu "$5" type veth peer name "$4" netns "$3" mtu "$5"
}

# Checks a tc rate such as 10mbit (empty: no limit); exits 2 naming FLAG otherwise.
netlab_check_rate() {
  [[ "$2" =~ ^([0-9]+(\.[0-9]+)?(bit|kbit|mbit|gbit|bps|kbps|mbps|gbps))?$ ]] ||
    netlab_die "$1: '$2' is not a tc rate such as 10mbit" 2
}

# Limits a link to RATE: NS IF RATE MTU link IFB, or NS IF RATE MTU shaper PEER_NS PEER_IF.
#   link    one tc tbf token bucket for both directions of IF, through a new ifb device IFB
#           in NS, so that a round trip pays the serialization of both its packets
#   shaper  a tbf on each end (IF, and PEER_IF in PEER_NS)
# The bucket holds one whole frame (MTU + 14 bytes of Ethernet header) or tbf drops it;
# latency 100 ms bounds the queue. No netem: these kernels lack it.
netlab_shape_link() {
  local ns=$1 interface=$2 rate=$3 link_mtu=$4 mode=$5 direction
  local tbf=(tbf rate "$rate" burst $((link_mtu + 100)) latency 100ms)
  if [ "$mode" = link ]; then
    local shared_if=$6
    netlab_run ip link add "$shared_if" netns "$ns" mtu "$link_mtu" type ifb
    netlab_run ip -n "$ns" link set "$shared_if" up
    netlab_run tc -n "$ns" qdisc add dev "$shared_if" root "${tbf[@]}"
    netlab_run tc -n "$ns" qdisc add dev "$interface" clsact
    for direction in ingress egress; do
      netlab_run tc -n "$ns" filter add dev "$interface" "$direction" protocol all \
        u32 match u32 0 0 action mirred egress redirect dev "$shared_if"
    done
  else
    netlab_run tc -n "$ns" qdisc add dev "$interface" root "${tbf[@]}"
    netlab_run tc -n "$6" qdisc add dev "$7" root "${tbf[@]}"
  fi
}

# Kills what runs in the lab's namespaces (children of a command keep a namespace alive)
# and deletes them.
netlab_delete_namespaces() {
  local ns pid
  for ns in "${netlab_namespaces[@]}"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
    ip netns delete "$ns" 2>/dev/null ||
      echo "${netlab_name:-netlab}: could not delete namespace $ns" >&2
  done
  netlab_namespaces=()
}
