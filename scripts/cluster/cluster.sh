#!/usr/bin/env bash
# A cluster of Docker Engines on this machine, one per network namespace, for the Swarm tests
# (docs/guide/cluster.md). Run as root. Every name is derived from a cluster id given by the caller, so two
# runs on the machine never share a namespace, bridge, subnet or directory.
#
#   cluster.sh create ID NODES DIR     N engines (1-5) on a bridge of their own; prints one line per node:
#                                      "node INDEX ADDRESS SOCKET"
#   cluster.sh start DIR INDEX         starts a node's engine (again)
#   cluster.sh stop DIR INDEX          stops it gracefully (SIGTERM to the dockerd this script started)
#   cluster.sh kill DIR INDEX          a lost machine: SIGKILL to its engine, containerd, shims and containers
#   cluster.sh cut DIR INDEX           its network cable pulled (host end of its veth down)
#   cluster.sh restore DIR INDEX       the cable back
#   cluster.sh load DIR IMAGE...       copies images from this machine's engine to every node (save | load)
#   cluster.sh trust DIR HOST:PORT CA  makes every engine trust a registry's CA (removed by destroy)
#   cluster.sh esp DIR                 prints "yes" when the kernel holds what an encrypted overlay needs (IPsec
#                                      ESP with AES-GCM), else "no"
#   cluster.sh destroy DIR             removes everything create made; safe to run twice
set -euo pipefail

die() { echo "cluster: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "must run as root (network namespaces, bridges, iptables)"

LOCK_ROOT=/run/slipway-cluster
CERTS_ROOT=/etc/docker/certs.d

valid_id() { [[ "$1" =~ ^[a-z0-9]{3,6}$ ]] || die "cluster id must be 3-6 lowercase letters or digits: '$1'"; }
valid_index() { [[ "$1" =~ ^[1-5]$ ]] || die "node index must be 1-5: '$1'"; }

load_state() {
  local dir=$1
  [ -f "$dir/cluster.env" ] || die "no cluster in '$dir'"
  # shellcheck disable=SC1091
  source "$dir/cluster.env"
  DIR=$dir
}

ns_name() { echo "sw${ID}n$1"; }
host_veth() { echo "sw${ID}h$1"; }
node_veth() { echo "sw${ID}c$1"; }
node_addr() { echo "10.250.${SUBNET}.$((10 + $1))"; }
node_dir() { echo "$DIR/n$1"; }
node_sock() { echo "$(node_dir "$1")/engine.sock"; }
cgroup_parent() { echo "slipway-cluster-${ID}-n$1"; }

# One /24 of 10.250.0.0/16 per cluster, claimed by an atomic mkdir so concurrent runs never pick the same.
claim_subnet() {
  mkdir -p "$LOCK_ROOT"
  local k
  for k in $(seq 1 254); do
    if ip -4 addr show | grep -q "inet 10\.250\.$k\."; then continue; fi
    if mkdir "$LOCK_ROOT/subnet-$k" 2>/dev/null; then echo "$k"; return; fi
  done
  die "no free subnet in 10.250.0.0/16"
}

# A killed process stays a zombie until this machine's init reaps it, and `kill -0` still finds a zombie.
alive() {
  local state
  state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

wait_engine() {
  local index=$1 sock
  sock=$(node_sock "$index")
  for _ in $(seq 1 120); do
    if docker -H "unix://$sock" info >/dev/null 2>&1; then return; fi
    if ! alive "$(cat "$(node_dir "$index")/dockerd.pid" 2>/dev/null || echo 0)"; then
      tail -n 20 "$(node_dir "$index")/dockerd.log" >&2 || true
      die "the engine of node $index exited"
    fi
    sleep 0.5
  done
  die "the engine of node $index did not answer within 60 s"
}

start_engine() {
  local index=$1 dir pid
  dir=$(node_dir "$index")
  pid=$(cat "$dir/dockerd.pid" 2>/dev/null || echo "")
  if [ -n "$pid" ] && alive "$pid"; then return; fi
  mkdir -p "$dir/data" "$dir/exec"
  # dockerd refuses a pid file whose process is in /proc, and waits for the socket of a containerd whose pid
  # answers `kill -0`: a killed engine's zombies do both.
  local file old
  for file in "$dir/engine.pid" "$dir/exec/containerd/containerd.pid"; do
    old=$(cat "$file" 2>/dev/null || echo "")
    if [ -n "$old" ] && ! alive "$old"; then rm -f "$file"; fi
  done
  [ -f "$dir/daemon.json" ] || echo '{}' >"$dir/daemon.json"
  # nsenter, not `ip netns exec`: the latter remounts /sys and dockerd then finds no cgroup mounts. dockerd
  # starts a containerd of its own under its exec root (this machine runs no system containerd).
  # A UTS namespace of its own gives each engine (and its Swarm node) its own hostname.
  setsid nsenter --net="/var/run/netns/$(ns_name "$index")" -- unshare --uts -- \
    sh -c 'hostname "$0" && exec dockerd "$@"' "$(ns_name "$index")" \
    --config-file "$dir/daemon.json" \
    --data-root "$dir/data" \
    --exec-root "$dir/exec" \
    --pidfile "$dir/engine.pid" \
    -H "unix://$(node_sock "$index")" \
    --bip "10.251.$index.1/24" \
    --cgroup-parent "/$(cgroup_parent "$index")" \
    --log-level warn \
    >>"$dir/dockerd.log" 2>&1 </dev/null &
  echo $! >"$dir/dockerd.pid"
}

create_node() {
  local index=$1 ns hv nv dir
  ns=$(ns_name "$index")
  hv=$(host_veth "$index")
  nv=$(node_veth "$index")
  dir=$(node_dir "$index")
  mkdir -p "$dir"
  ip netns add "$ns"
  ip link add "$hv" type veth peer name "$nv"
  ip link set "$nv" netns "$ns"
  ip link set "$hv" master "$BRIDGE"
  ip link set "$hv" up
  ip -n "$ns" link set lo up
  ip -n "$ns" link set "$nv" name eth0
  ip -n "$ns" addr add "$(node_addr "$index")/24" dev eth0
  ip -n "$ns" link set eth0 up
  start_engine "$index"
}

cmd_create() {
  [ $# -eq 3 ] || die "usage: create ID NODES DIR"
  ID=$1 NODES=$2 DIR=$3
  valid_id "$ID"
  [[ "$NODES" =~ ^[1-5]$ ]] || die "nodes must be 1-5: '$NODES'"
  [ ! -e "$DIR/cluster.env" ] || die "'$DIR' already holds a cluster"
  mkdir -p "$DIR"
  SUBNET=$(claim_subnet)
  BRIDGE="sw${ID}br"
  # Written first: whatever fails below, destroy finds what to remove.
  printf 'ID=%q\nNODES=%q\nSUBNET=%q\nBRIDGE=%q\n' "$ID" "$NODES" "$SUBNET" "$BRIDGE" >"$DIR/cluster.env"
  ip link add "$BRIDGE" type bridge
  ip addr add "10.250.$SUBNET.1/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  # Docker sets FORWARD's policy to DROP; bridged traffic between the nodes passes through it.
  iptables -I FORWARD -i "$BRIDGE" -o "$BRIDGE" -j ACCEPT
  local index
  for index in $(seq 1 "$NODES"); do create_node "$index"; done
  for index in $(seq 1 "$NODES"); do wait_engine "$index"; done
  for index in $(seq 1 "$NODES"); do
    echo "node $index $(node_addr "$index") $(node_sock "$index")"
  done
}

# Every process of a node: its engine and what the engine started (containerd and the shims live in the node's
# network namespace; containers live in the node's cgroup).
node_pids() {
  local index=$1 file pid
  for pid in $(
    ip netns pids "$(ns_name "$index")" 2>/dev/null || true
    for file in /sys/fs/cgroup/pids/"$(cgroup_parent "$index")"/*/cgroup.procs; do
      [ -f "$file" ] && cat "$file"
    done
  ); do
    if alive "$pid"; then echo "$pid"; fi
  done
}

kill_node() {
  local index=$1 pid
  for pid in $(node_pids "$index" | sort -u); do kill -9 "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 50); do [ -z "$(node_pids "$index")" ] && return; sleep 0.1; done
}

stop_engine() {
  local index=$1 dir pid
  dir=$(node_dir "$index")
  pid=$(cat "$dir/dockerd.pid" 2>/dev/null || echo "")
  [ -n "$pid" ] && alive "$pid" || return 0
  kill -TERM "$pid"
  for _ in $(seq 1 300); do alive "$pid" || return 0; sleep 0.1; done
  die "the engine of node $index did not stop within 30 s"
}

# Mounts an engine killed mid-flight leaves behind (overlay layers, network namespaces), deepest first.
unmount_under() {
  local root=$1 target
  while read -r target; do umount -l "$target" 2>/dev/null || true; done < <(
    awk -v root="$root" 'index($2, root) == 1 { print $2 }' /proc/self/mounts | sort -r
  )
}

remove_cgroups() {
  local parent=$1 controller
  for controller in /sys/fs/cgroup/*/; do
    [ -d "$controller$parent" ] || continue
    find "$controller$parent" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  done
}

cmd_destroy() {
  [ $# -eq 1 ] || die "usage: destroy DIR"
  [ -f "$1/cluster.env" ] || return 0
  load_state "$1"
  local index
  # Nothing here is kept: the engines are killed at once, not stopped (a graceful stop of a Swarm member takes
  # seconds per node).
  for index in $(seq 1 "$NODES"); do kill_node "$index"; done
  for index in $(seq 1 "$NODES"); do
    unmount_under "$(node_dir "$index")/"
    remove_cgroups "$(cgroup_parent "$index")"
    ip link del "$(host_veth "$index")" 2>/dev/null || true
    ip netns del "$(ns_name "$index")" 2>/dev/null || true
  done
  while iptables -D FORWARD -i "$BRIDGE" -o "$BRIDGE" -j ACCEPT 2>/dev/null; do :; done
  ip link del "$BRIDGE" 2>/dev/null || true
  if [ -f "$DIR/trusted" ]; then
    local registry
    while read -r registry; do rm -rf "${CERTS_ROOT:?}/$registry"; done <"$DIR/trusted"
  fi
  rmdir "$LOCK_ROOT/subnet-$SUBNET" 2>/dev/null || true
  rm -rf "$DIR"
}

cmd_load() {
  [ $# -ge 2 ] || die "usage: load DIR IMAGE..."
  load_state "$1"
  shift
  local archive="$DIR/images.tar" index
  docker save -o "$archive" -- "$@"
  for index in $(seq 1 "$NODES"); do
    docker -H "unix://$(node_sock "$index")" load -q -i "$archive" >/dev/null &
  done
  wait
  rm -f "$archive"
}

cmd_trust() {
  [ $# -eq 3 ] || die "usage: trust DIR HOST:PORT CA_FILE"
  load_state "$1"
  [[ "$2" =~ ^10\.250\.[0-9]+\.[0-9]+:[0-9]+$ ]] || die "registry must be a node address with a port: '$2'"
  # Every engine on this machine reads the same certs.d; the registry's address is this cluster's own.
  mkdir -p "$CERTS_ROOT/$2"
  cp -- "$3" "$CERTS_ROOT/$2/ca.crt"
  echo "$2" >>"$DIR/trusted"
}

# Docker creates an encrypted overlay on any kernel, and on one without ESP its traffic is silently dropped.
# The kernel is asked directly, in node 1's namespace: it takes an ESP state with the algorithm Docker uses.
cmd_esp() {
  [ $# -eq 1 ] || die "usage: esp DIR"
  load_state "$1"
  local ns key
  ns=$(ns_name 1)
  key=0x$(printf '0%.0s' $(seq 1 40))
  if ip -n "$ns" xfrm state add src 10.250.255.1 dst 10.250.255.2 proto esp spi 0x1 mode transport \
    aead 'rfc4106(gcm(aes))' "$key" 64 2>/dev/null; then
    ip -n "$ns" xfrm state flush
    echo yes
  else
    echo no
  fi
}

node_command() {
  local verb=$1
  [ $# -eq 3 ] || die "usage: $verb DIR INDEX"
  load_state "$2"
  valid_index "$3"
  [ "$3" -le "$NODES" ] || die "the cluster has $NODES nodes"
  case "$verb" in
    start) start_engine "$3"; wait_engine "$3" ;;
    stop) stop_engine "$3" ;;
    kill) kill_node "$3" ;;
    cut) ip link set "$(host_veth "$3")" down ;;
    restore) ip link set "$(host_veth "$3")" up ;;
  esac
}

case "${1:-}" in
  create) shift; cmd_create "$@" ;;
  destroy) shift; cmd_destroy "$@" ;;
  load) shift; cmd_load "$@" ;;
  trust) shift; cmd_trust "$@" ;;
  esp) shift; cmd_esp "$@" ;;
  start | stop | kill | cut | restore) node_command "$@" ;;
  *) die "usage: cluster.sh create|start|stop|kill|cut|restore|load|trust|esp|destroy ..." ;;
esac
