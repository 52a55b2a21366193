#!/usr/bin/env bash
# What runs of the topology: each node's role by Patroni's REST endpoints, Patroni's own view
# (patronictl list), and what HAProxy routes. Exits 0 when a leader with a synchronous standby
# is reachable through HAProxy, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")"
source ./common.sh

for n in 1 2 3; do
  rest=$(node_rest_port "$n")
  role=down
  [ "$(rest_status "$rest" /replica)" = 200 ] && role=replica
  [ "$(rest_status "$rest" /sync)" = 200 ] && role="synchronous standby"
  [ "$(rest_status "$rest" /primary)" = 200 ] && role=leader
  printf 'node%s  postgres 127.0.0.1:%s  patroni http://127.0.0.1:%s  %s\n' "$n" "$(node_pg_port "$n")" "$rest" "$role"
done
if [ -f "$HA_DATA_DIR/node1/patroni.yml" ]; then
  as_service_user patronictl -c "$HA_DATA_DIR/node1/patroni.yml" list 2>/dev/null || true
fi
leader=$(pg_value "$HA_LEADER_PORT" 'SELECT inet_server_port()')
replica=$(pg_value "$HA_REPLICA_PORT" 'SELECT inet_server_port()')
printf 'HAProxy %s (leader) -> %s\nHAProxy %s (replicas) -> %s\n' "$HA_LEADER_PORT" "${leader:-nothing}" "$HA_REPLICA_PORT" "${replica:-nothing}"
[ -n "$leader" ] && [ -n "$replica" ]
