# Shared by start.sh, stop.sh and status.sh: where the topology lives, its ports, and how a
# process is started as the service user. Sourced, not run.

HA_DATA_DIR="$(realpath -m "${HA_DATA_DIR:-${TMPDIR:-/tmp}/gateway-ha}")"
HA_PG_BIN="${HA_PG_BIN:-/usr/lib/postgresql/15/bin}"
HA_PG_PASSWORD="${HA_PG_PASSWORD:-postgres}"
HA_REPLICATION_PASSWORD="${HA_REPLICATION_PASSWORD:-replicator}"
HA_SCOPE="${HA_SCOPE:-gateway-ha}"
HA_NODES=(node1 node2 node3)
# Ports of node N (1-based) are the base + N: PostgreSQL 5441-5443, Patroni REST 8441-8443.
HA_PG_PORT_BASE=5440
HA_REST_PORT_BASE=8440
HA_ETCD_CLIENT_PORT=2391
HA_ETCD_PEER_PORT=2392
HA_LEADER_PORT=5440
HA_REPLICA_PORT=5439
HA_STATS_PORT=8440
HA_SERVICE_USER="${HA_SERVICE_USER:-postgres}"

ha_log() { printf '[ha] %s\n' "$*" >&2; }

# Runs a command as the service user: PostgreSQL refuses to run as root, and nothing of the
# topology needs root. A user other than root runs everything as itself.
as_service_user() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u "$HA_SERVICE_USER" -- "$@"; else "$@"; fi
}

pid_alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }

# The pid a pid file names, when that process still runs; empty otherwise.
running_pid() {
  local file="$1" pid
  [ -f "$file" ] || return 0
  pid=$(head -n 1 "$file" 2>/dev/null || true)
  if pid_alive "$pid"; then printf '%s' "$pid"; fi
}

node_pg_port() { printf '%s' $((HA_PG_PORT_BASE + $1)); }
node_rest_port() { printf '%s' $((HA_REST_PORT_BASE + $1)); }

# HTTP status of a Patroni REST endpoint (000 when nothing answers).
rest_status() {
  curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$1$2" 2>/dev/null || true
}

# One value from PostgreSQL through a port (HAProxy's or a node's); empty when it does not answer.
pg_value() {
  PGPASSWORD="$HA_PG_PASSWORD" PGCONNECT_TIMEOUT=2 "$HA_PG_BIN/psql" -h 127.0.0.1 -p "$1" -U postgres -d postgres -tAq -c "$2" 2>/dev/null || true
}
