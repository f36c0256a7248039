#!/usr/bin/env bash
# Starts a cluster of Docker engines on this one machine, for the pool and Swarm backends' tests and for trying them
# by hand (docs/cluster.md): N `dockerd`, each in a network namespace of its own, with its own data-root, exec-root
# (its own managed containerd) and unix socket, joined by a bridge in a hub namespace of their own (10.231.0.0/24;
# node i is 10.231.0.(10+i)). Nothing is reachable from outside: the hub has no link to the host's network, and the
# host's namespace gets no address on it. Each node gets the base image from the host's engine (docker save | load)
# unless --no-image. With --swarm, node 1 inits a swarm on its address and the others join as workers.
#
# Usage: sudo bash scripts/cluster-up.sh [--nodes N] [--name NAME] [--swarm] [--no-image] [--image REF]
#   --nodes N    engines to start (default 3, at most 9)
#   --name NAME  prefix of namespaces, links and folders (default swc; letters and digits, at most 6)
#   --swarm      make node 1 a swarm manager and join the others as workers
#   --no-image   do not copy the base image into the nodes
#   --image REF  the image to copy (default specweave-base:bookworm)
# Prints one line per node: `node<i> unix://<socket> <address>`, and writes the same to <state>/nodes.
# State under /run/<name>-cluster (sockets, pids) and /var/lib/<name>-cluster (engine data). Undo with
# scripts/cluster-down.sh --name NAME. Idempotent: a node whose engine already answers is left as it is.
set -euo pipefail

NODES=3 NAME=swc SWARM=0 IMAGE=1 IMAGE_REF=specweave-base:bookworm
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) NODES="$2"; shift 2 ;;
    --name) NAME="$2"; shift 2 ;;
    --swarm) SWARM=1; shift ;;
    --no-image) IMAGE=0; shift ;;
    --image) IMAGE_REF="$2"; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "cluster-up: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$NODES" =~ ^[1-9]$ ]] || { echo "cluster-up: --nodes must be 1 to 9, not $NODES" >&2; exit 2; }
[[ "$NAME" =~ ^[a-z][a-z0-9]{0,5}$ ]] || { echo "cluster-up: --name must be a lowercase letter then up to 5 letters or digits, not $NAME" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "cluster-up: needs root (network namespaces, dockerd)" >&2; exit 1; }
for c in ip nsenter dockerd docker; do command -v "$c" >/dev/null || { echo "cluster-up: $c is not installed (apt-get install -y iproute2 util-linux docker.io)" >&2; exit 1; }; done

RUN="/run/${NAME}-cluster"
LIB="/var/lib/${NAME}-cluster"
HUB="${NAME}-hub"
mkdir -p "$RUN" "$LIB"
: > "$RUN/nodes.tmp"

ns_exists() { [ -e "/run/netns/$1" ]; }
in_ns() { local ns="$1"; shift; nsenter --net="/run/netns/$ns" "$@"; }

# The hub: a namespace with a bridge and nothing else.
if ! ns_exists "$HUB"; then
  ip netns add "$HUB"
  in_ns "$HUB" ip link set lo up
  in_ns "$HUB" ip link add br0 type bridge
  in_ns "$HUB" ip link set br0 up
fi

answers() { timeout 5 docker -H "unix://$1" version --format '{{.Server.Version}}' >/dev/null 2>&1; }

for i in $(seq 1 "$NODES"); do
  ns="${NAME}-n$i"
  addr="10.231.0.$((10 + i))"
  sock="$RUN/n$i.sock"
  if ! ns_exists "$ns"; then
    ip netns add "$ns"
    in_ns "$ns" ip link set lo up
    # A veth pair made in the node's namespace: eth0 stays, its peer moves to the hub and joins the bridge.
    in_ns "$ns" ip link add eth0 type veth peer name "h$i"
    in_ns "$ns" ip link set "h$i" netns "$HUB"
    in_ns "$HUB" ip link set "h$i" master br0
    in_ns "$HUB" ip link set "h$i" up
    in_ns "$ns" ip addr add "$addr/24" dev eth0
    in_ns "$ns" ip link set eth0 up
  fi
  if ! answers "$sock"; then
    mkdir -p "$LIB/n$i" "$RUN/n$i"
    rm -f "$sock" "$RUN/n$i.pid"
    # setsid + nohup: the engine outlives this script; its log is beside its data.
    in_ns "$ns" setsid nohup dockerd \
      --host "unix://$sock" --data-root "$LIB/n$i" --exec-root "$RUN/n$i" --pidfile "$RUN/n$i.pid" \
      --bridge=none --iptables=false --ip6tables=false --ip-forward=false --ip-masq=false \
      >"$LIB/n$i.log" 2>&1 < /dev/null &
    for _ in $(seq 1 120); do answers "$sock" && break; sleep 0.5; done
    answers "$sock" || { echo "cluster-up: node$i's engine did not answer on $sock (log: $LIB/n$i.log)" >&2; tail -5 "$LIB/n$i.log" >&2; exit 1; }
  fi
  echo "node$i unix://$sock $addr" >> "$RUN/nodes.tmp"
done

if ((IMAGE)); then
  if docker image inspect "$IMAGE_REF" >/dev/null 2>&1; then
    save="$LIB/image.tar"
    for i in $(seq 1 "$NODES"); do
      sock="$RUN/n$i.sock"
      if ! docker -H "unix://$sock" image inspect "$IMAGE_REF" >/dev/null 2>&1; then
        [ -s "$save" ] || docker save -o "$save" "$IMAGE_REF"
        docker -H "unix://$sock" load -q -i "$save" >/dev/null
      fi
    done
    rm -f "$save"
  else
    echo "cluster-up: the host's engine has no $IMAGE_REF; the nodes get no image (bash scripts/setup-docker.sh builds it)" >&2
  fi
fi

if ((SWARM)); then
  m="unix://$RUN/n1.sock"
  if [ "$(docker -H "$m" info --format '{{.Swarm.LocalNodeState}}')" != active ]; then
    docker -H "$m" swarm init --advertise-addr 10.231.0.11 --listen-addr 10.231.0.11:2377 >/dev/null
  fi
  token="$(docker -H "$m" swarm join-token -q worker)"
  for i in $(seq 2 "$NODES"); do
    w="unix://$RUN/n$i.sock"
    if [ "$(docker -H "$w" info --format '{{.Swarm.LocalNodeState}}')" != active ]; then
      docker -H "$w" swarm join --token "$token" --advertise-addr "10.231.0.$((10 + i))" --listen-addr "10.231.0.$((10 + i)):2377" 10.231.0.11:2377 >/dev/null
    fi
  done
  # A node that just joined is `unknown` to the manager for a moment: return once every node is ready.
  ready=0
  for _ in $(seq 1 120); do
    ready="$(docker -H "$m" node ls --format '{{.Status}}' | grep -c '^Ready$' || true)"
    [ "$ready" -ge "$NODES" ] && break
    sleep 0.5
  done
  [ "$ready" -ge "$NODES" ] || { echo "cluster-up: only $ready of $NODES swarm nodes are ready" >&2; docker -H "$m" node ls >&2; exit 1; }
fi

mv "$RUN/nodes.tmp" "$RUN/nodes"
cat "$RUN/nodes"
