#!/usr/bin/env bash
# Starts, on this one machine, the replicated PostgreSQL the gateway can run on: one etcd member,
# three PostgreSQL 15 nodes each managed by Patroni (synchronous replication), and HAProxy routing
# 5440 to the leader and 5439 to the replicas by Patroni's REST health endpoints. Everything lives
# under $HA_DATA_DIR (default ${TMPDIR:-/tmp}/gateway-ha) and runs as the postgres user.
#
# Idempotent: what already runs is left alone, what is missing (a node killed by a test) is
# started again, on its existing data (Patroni rewinds a former leader and makes it a replica).
# Returns once there is a leader, a synchronous standby and HAProxy routes both ports, or fails
# after $HA_START_TIMEOUT seconds (default 120) with the logs' tails.
set -euo pipefail
cd "$(dirname "$0")"
source ./common.sh

HA_START_TIMEOUT="${HA_START_TIMEOUT:-120}"

require() {
  local missing=()
  command -v etcd >/dev/null || missing+=("etcd (Debian etcd-server)")
  command -v patroni >/dev/null || missing+=("patroni (Debian patroni)")
  command -v haproxy >/dev/null || missing+=("haproxy (Debian haproxy)")
  command -v curl >/dev/null || missing+=("curl")
  [ -x "$HA_PG_BIN/postgres" ] || missing+=("PostgreSQL 15 in $HA_PG_BIN (Debian postgresql-15)")
  if [ "${#missing[@]}" -gt 0 ]; then
    ha_log "missing: ${missing[*]}"
    exit 1
  fi
}

port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A port this script is about to listen on must be free; something else on it (Debian's own
# etcd or haproxy service has other default ports, but a stray copy may not) is an error to fix
# by hand, never something to kill from here.
require_free() {
  if port_taken "$1"; then
    ha_log "port $1 ($2) is taken by a process this script did not start; stop it or run ops/ha/stop.sh"
    exit 1
  fi
}

# Starts a command in the background as the service user, in a session of its own (a Ctrl-C of
# the caller does not reach it), its pid in $1 (the command's own pid, not runuser's).
start_detached() {
  local pidfile="$1" logfile="$2" runner=()
  shift 2
  if [ "$(id -u)" -eq 0 ]; then runner=(runuser -u "$HA_SERVICE_USER" --); fi
  rm -f "$pidfile"
  # Started from /: the service user may not enter the folder this script was called from (a
  # checkout in a private folder), and HAProxy, for one, refuses to start when it cannot return
  # to its starting folder. Every path given is absolute (HA_DATA_DIR is made so in common.sh).
  # shellcheck disable=SC2016
  (cd / && exec setsid "${runner[@]}" sh -c 'echo $$ > "$0"; exec "$@"' "$pidfile" "$@" >>"$logfile" 2>&1 </dev/null) &
  for _ in $(seq 1 50); do
    [ -s "$pidfile" ] && return 0
    sleep 0.1
  done
  ha_log "$(basename "$pidfile" .pid) did not start: $(tail -n 5 "$logfile")"
  exit 1
}

prepare_dirs() {
  mkdir -p "$HA_DATA_DIR/etcd" "$HA_DATA_DIR/haproxy" "${HA_NODES[@]/#/$HA_DATA_DIR/}"
  if [ "$(id -u)" -eq 0 ]; then chown -R "$HA_SERVICE_USER:" "$HA_DATA_DIR"; fi
  chmod 700 "$HA_DATA_DIR/etcd"
}

start_etcd() {
  local dir="$HA_DATA_DIR/etcd"
  [ -n "$(running_pid "$dir/etcd.pid")" ] && return 0
  require_free "$HA_ETCD_CLIENT_PORT" "etcd client"
  require_free "$HA_ETCD_PEER_PORT" "etcd peer"
  # One member: on one machine a quorum of three etcd processes would share every failure
  # anyway. Across machines run three members (docs/deployment.md).
  start_detached "$dir/etcd.pid" "$dir/etcd.log" etcd \
    --name ha1 --data-dir "$dir/data" \
    --listen-client-urls "http://127.0.0.1:$HA_ETCD_CLIENT_PORT" --advertise-client-urls "http://127.0.0.1:$HA_ETCD_CLIENT_PORT" \
    --listen-peer-urls "http://127.0.0.1:$HA_ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$HA_ETCD_PEER_PORT" \
    --initial-cluster "ha1=http://127.0.0.1:$HA_ETCD_PEER_PORT" --initial-cluster-state new --initial-cluster-token "$HA_SCOPE"
  for _ in $(seq 1 100); do
    curl -s --max-time 1 "http://127.0.0.1:$HA_ETCD_CLIENT_PORT/health" | grep -q '"health":"true"' && return 0
    sleep 0.2
  done
  ha_log "etcd did not become healthy: $(tail -n 5 "$dir/etcd.log")"
  exit 1
}

write_patroni_config() {
  local n="$1" name="node$1" dir="$HA_DATA_DIR/node$1"
  sed -e "s|@NAME@|$name|g" -e "s|@DIR@|$dir|g" -e "s|@SCOPE@|$HA_SCOPE|g" \
    -e "s|@PG_PORT@|$(node_pg_port "$n")|g" -e "s|@REST_PORT@|$(node_rest_port "$n")|g" \
    -e "s|@ETCD_PORT@|$HA_ETCD_CLIENT_PORT|g" -e "s|@PG_BIN@|$HA_PG_BIN|g" \
    -e "s|@PG_PASSWORD@|$HA_PG_PASSWORD|g" -e "s|@REPLICATION_PASSWORD@|$HA_REPLICATION_PASSWORD|g" \
    patroni.yml.in >"$dir/patroni.yml"
  chmod 600 "$dir/patroni.yml"
  if [ "$(id -u)" -eq 0 ]; then chown "$HA_SERVICE_USER:" "$dir/patroni.yml"; fi
}

start_node() {
  local n="$1" dir="$HA_DATA_DIR/node$1"
  [ -n "$(running_pid "$dir/patroni.pid")" ] && return 0
  # A postmaster left behind by a killed Patroni keeps serving: Patroni adopts it on start.
  [ -n "$(running_pid "$dir/data/postmaster.pid")" ] || require_free "$(node_pg_port "$n")" "PostgreSQL node$n"
  require_free "$(node_rest_port "$n")" "Patroni REST node$n"
  write_patroni_config "$n"
  start_detached "$dir/patroni.pid" "$dir/patroni.log" patroni "$dir/patroni.yml"
}

start_haproxy() {
  local dir="$HA_DATA_DIR/haproxy"
  [ -n "$(running_pid "$dir/haproxy.pid")" ] && return 0
  require_free "$HA_LEADER_PORT" "HAProxy leader"
  require_free "$HA_REPLICA_PORT" "HAProxy replicas"
  require_free "$HA_STATS_PORT" "HAProxy stats"
  cp haproxy.cfg "$dir/haproxy.cfg"
  haproxy -c -q -f "$dir/haproxy.cfg"
  # -db: stays in the foreground of its own session, so its pid is the one stop.sh ends.
  start_detached "$dir/haproxy.pid" "$dir/haproxy.log" haproxy -db -f "$dir/haproxy.cfg"
}

topology_ready() {
  local n leader="" sync=""
  for n in 1 2 3; do
    [ "$(rest_status "$(node_rest_port "$n")" /primary)" = 200 ] && leader="node$n"
    [ "$(rest_status "$(node_rest_port "$n")" /sync)" = 200 ] && sync="node$n"
  done
  [ -n "$leader" ] && [ -n "$sync" ] || return 1
  [ "$(pg_value "$HA_LEADER_PORT" 'SELECT pg_is_in_recovery()')" = f ] || return 1
  [ "$(pg_value "$HA_REPLICA_PORT" 'SELECT pg_is_in_recovery()')" = t ] || return 1
  printf '%s %s' "$leader" "$sync"
}

wait_until_ready() {
  local deadline=$((SECONDS + HA_START_TIMEOUT)) state
  until state=$(topology_ready); do
    if [ "$SECONDS" -ge "$deadline" ]; then
      ha_log "no leader with a synchronous standby behind HAProxy after ${HA_START_TIMEOUT}s"
      for n in 1 2 3; do ha_log "node$n: $(tail -n 5 "$HA_DATA_DIR/node$n/patroni.log" 2>/dev/null)"; done
      exit 1
    fi
    sleep 1
  done
  printf '%s' "$state"
}

# The database the gateway uses; created through HAProxy once the leader takes writes.
ensure_gateway_database() {
  if [ "$(pg_value "$HA_LEADER_PORT" "SELECT 1 FROM pg_database WHERE datname = 'gateway'")" != 1 ]; then
    pg_value "$HA_LEADER_PORT" 'CREATE DATABASE gateway' >/dev/null
  fi
}

require
prepare_dirs
start_etcd
for n in 1 2 3; do start_node "$n"; done
start_haproxy
read -r leader sync <<<"$(wait_until_ready)"
ensure_gateway_database
cat <<INFO
leader: $leader, synchronous standby: $sync (data in $HA_DATA_DIR)
DATABASE_URL=postgres://postgres:$HA_PG_PASSWORD@127.0.0.1:$HA_LEADER_PORT/gateway
DATABASE_READ_URL=postgres://postgres:$HA_PG_PASSWORD@127.0.0.1:$HA_REPLICA_PORT/gateway
HAProxy stats: http://127.0.0.1:$HA_STATS_PORT/
Patroni REST: http://127.0.0.1:8441/ http://127.0.0.1:8442/ http://127.0.0.1:8443/
etcd: http://127.0.0.1:$HA_ETCD_CLIENT_PORT
INFO
