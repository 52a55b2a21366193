#!/usr/bin/env bash
# Rehearses the death of a database machine: SIGKILL, all at once, a node's Patroni, its
# postmaster and every PostgreSQL process under it. Killing the postmaster alone is a different
# fault: Patroni would notice and start PostgreSQL again on the same node, still leader, with no
# failover. `leader` names whichever node leads now. ops/ha/start.sh brings the node back.
set -euo pipefail
cd "$(dirname "$0")"
source ./common.sh

node="${1:?usage: kill-node.sh node1|node2|node3|leader}"
if [ "$node" = leader ]; then
  node=""
  for n in 1 2 3; do [ "$(rest_status "$(node_rest_port "$n")" /primary)" = 200 ] && node="node$n"; done
  [ -n "$node" ] || { ha_log "no node leads"; exit 1; }
fi
dir="$HA_DATA_DIR/$node"
[ -d "$dir" ] || { ha_log "no such node: $dir"; exit 1; }
pids=()
patroni=$(running_pid "$dir/patroni.pid")
postmaster=$(running_pid "$dir/data/postmaster.pid")
[ -n "$patroni" ] && pids+=("$patroni")
if [ -n "$postmaster" ]; then
  pids+=("$postmaster")
  # shellcheck disable=SC2207
  pids+=($(cat "/proc/$postmaster/task/$postmaster/children" 2>/dev/null || true))
fi
[ "${#pids[@]}" -gt 0 ] || { ha_log "$node runs nothing"; exit 0; }
kill -KILL "${pids[@]}" 2>/dev/null || true
printf '%s\n' "$node"
