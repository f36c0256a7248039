#!/usr/bin/env bash
# Stops what scripts/cluster-up.sh started: every node's engine (its containers removed first, so no container
# outlives its engine), the node and hub namespaces, and the nodes' state and data. Leaves the host's own engine alone.
#
# Usage: sudo bash scripts/cluster-down.sh [--name NAME] [--keep-data]
#   --name NAME   the prefix given to cluster-up.sh (default swc)
#   --keep-data   keep /var/lib/<name>-cluster (the nodes' images), to start again faster
set -uo pipefail

NAME=swc KEEP=0
while [ $# -gt 0 ]; do
  case "$1" in
    --name) NAME="$2"; shift 2 ;;
    --keep-data) KEEP=1; shift ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "cluster-down: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$NAME" =~ ^[a-z][a-z0-9]{0,5}$ ]] || { echo "cluster-down: --name must be a lowercase letter then up to 5 letters or digits, not $NAME" >&2; exit 2; }

RUN="/run/${NAME}-cluster"
LIB="/var/lib/${NAME}-cluster"

for pidfile in "$RUN"/n*.pid; do
  [ -e "$pidfile" ] || continue
  n="$(basename "$pidfile" .pid)"
  sock="$RUN/$n.sock"
  if [ -S "$sock" ]; then
    timeout 20 docker -H "unix://$sock" swarm leave --force >/dev/null 2>&1 || true
    ids="$(timeout 10 docker -H "unix://$sock" ps -aq 2>/dev/null || true)"
    [ -n "$ids" ] && timeout 60 docker -H "unix://$sock" rm -f $ids >/dev/null 2>&1
  fi
  pid="$(cat "$pidfile" 2>/dev/null || true)"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  fi
done

# An engine killed with SIGKILL leaves its containerd and shims running: they are the cluster's, found by its folder.
pids="$(pgrep -f -- "$RUN/" || true)"
[ -n "$pids" ] && kill -9 $pids 2>/dev/null
# And its containers' processes: found by the container ids in its data folder, through their cgroups (v1 or v2).
for d in "$LIB"/n*/containers/*/; do
  [ -d "$d" ] || continue
  id="$(basename "$d")"
  [[ "$id" =~ ^[0-9a-f]{64}$ ]] || continue
  for procs in /sys/fs/cgroup/*/docker/"$id"/cgroup.procs /sys/fs/cgroup/docker/"$id"/cgroup.procs /sys/fs/cgroup/system.slice/docker-"$id".scope/cgroup.procs; do
    [ -f "$procs" ] && xargs -r kill -9 < "$procs" 2>/dev/null
  done
done

for ns in /run/netns/"$NAME"-n* /run/netns/"$NAME"-hub; do
  [ -e "$ns" ] && ip netns del "$(basename "$ns")"
done

# Mounts the engines left under their folders (overlay layers, the exec-root's netns files) go before the folders do.
for d in "$RUN" "$LIB"; do
  [ -d "$d" ] || continue
  grep -o " $d[^ ]*" /proc/self/mounts | sort -r | while read -r m; do umount -l "$m" 2>/dev/null || true; done
done
rm -rf "$RUN"
((KEEP)) || rm -rf "$LIB"
echo "cluster-down: $NAME stopped"
