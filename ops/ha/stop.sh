#!/usr/bin/env bash
# Stops everything ops/ha/start.sh started under $HA_DATA_DIR, and nothing else: each process is
# found by the pid file its start wrote (and PostgreSQL by its postmaster.pid), never by name.
# Safe to run twice or after a partial start. `--purge` also removes $HA_DATA_DIR.
set -euo pipefail
cd "$(dirname "$0")"
source ./common.sh

HA_STOP_GRACE="${HA_STOP_GRACE:-20}"

# SIGTERM, then SIGKILL once the grace period has passed.
stop_pid() {
  local pid="$1" what="$2"
  pid_alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 $((HA_STOP_GRACE * 5))); do
    pid_alive "$pid" || return 0
    sleep 0.2
  done
  ha_log "$what ($pid) ignored SIGTERM; SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
}

stop_file() {
  local file="$1" pid
  pid=$(running_pid "$file")
  [ -n "$pid" ] && stop_pid "$pid" "$(basename "$file")"
  rm -f "$file"
}

# A postmaster whose Patroni was killed keeps running on its own; stop it by its own pid file
# (a fast shutdown: SIGINT).
stop_postmaster() {
  local file="$1/data/postmaster.pid" pid
  pid=$(running_pid "$file")
  [ -n "$pid" ] || return 0
  kill -INT "$pid" 2>/dev/null || true
  for _ in $(seq 1 $((HA_STOP_GRACE * 5))); do
    pid_alive "$pid" || return 0
    sleep 0.2
  done
  kill -KILL "$pid" 2>/dev/null || true
}

if [ ! -d "$HA_DATA_DIR" ]; then
  ha_log "nothing to stop: $HA_DATA_DIR does not exist"
  exit 0
fi
stop_file "$HA_DATA_DIR/haproxy/haproxy.pid"
# Patroni stops its PostgreSQL on SIGTERM; the three at once, so no node waits on another.
for node in "${HA_NODES[@]}"; do stop_file "$HA_DATA_DIR/$node/patroni.pid" & done
wait
for node in "${HA_NODES[@]}"; do stop_postmaster "$HA_DATA_DIR/$node"; done
stop_file "$HA_DATA_DIR/etcd/etcd.pid"
if [ "${1:-}" = --purge ]; then
  rm -rf "$HA_DATA_DIR"
  ha_log "stopped and removed $HA_DATA_DIR"
else
  ha_log "stopped (data kept in $HA_DATA_DIR; --purge removes it)"
fi
