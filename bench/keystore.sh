#!/usr/bin/env bash
# The key-store model (src/model/keystore.rs) against a real Redis and a real PostgreSQL.
# Starts its own redis-server and its own PostgreSQL cluster in a temp
# dir on 127.0.0.1 and free ports, stores N idempotency keys the way the article does, and
# prints the model's bytes beside the measured ones:
#   Redis:    SET idem:<key> <value> EX 86400 NX (pipelined), used_memory less the empty
#             server's;
#   Postgres: INSERT ... ON CONFLICT DO NOTHING into the article's table (in batches), then a
#             full day of steady state: every hour (1/24 of the live keys) new claims, the
#             sweeper's DELETE of the expired rows and a VACUUM; pg_total_relation_size.
# Both servers are stopped and the temp dir removed on exit.
#
#   bash bench/keystore.sh                            # N in {10k, 100k, 1M} x {100 B, 1 kB, 10 kB}
#   SIZES="10000" BODIES="100 10000" bash bench/keystore.sh
#   MODEL=none bash bench/keystore.sh                 # measured figures only, as TSV (the test)
#   STORES=postgres bash bench/keystore.sh            # one store only (redis or postgres)
#
# Installs redis-server and postgresql (Debian packages) only if they are missing. A Redis
# case whose model figure exceeds half the available memory is skipped with a message.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES:-"10000 100000 1000000"}
BODIES=${BODIES:-"100 1000 10000"}
KEY_BYTES=36 # a UUID as text: schema.sql's idem_key
TTL=86400
SWEEPS=24    # sweeps per TTL: hourly for a day
BATCH=${BATCH:-10000}
MODEL=${MODEL:-example}
STORES=${STORES:-"redis postgres"}

say() { printf '%s\n' "$*" >&2; }

pg_bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if ! command -v redis-server >/dev/null 2>&1 || [ -z "$(pg_bindir)" ]; then
  say "installing redis-server and postgresql"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server postgresql >/dev/null
fi
PGBIN=$(pg_bindir)

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

TMP=$(mktemp -d /tmp/dupcost-keystore.XXXXXX)
REDIS_PORT=$(free_port)
PG_PORT=$(free_port)
# initdb refuses to run as root: the cluster then belongs to the postgres system user.
# (From the temp dir: the postgres user may not be allowed into the current one.)
as_pg() { if [ "$(id -u)" -eq 0 ]; then (cd "$TMP" && runuser -u postgres -- "$@"); else "$@"; fi; }
cleanup() {
  redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  if [ -f "$TMP/pg/postmaster.pid" ]; then
    as_pg "$PGBIN/pg_ctl" -D "$TMP/pg" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$TMP/redis"
redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
  --dir "$TMP/redis" --daemonize yes --pidfile "$TMP/redis/pid" --logfile "$TMP/redis/log" >/dev/null
[ "$(id -u)" -eq 0 ] && chown postgres "$TMP"
as_pg "$PGBIN/initdb" -D "$TMP/pg" -U postgres -A trust -E UTF8 --no-locale >/dev/null
# Durability off for speed: it changes no table's size. Autovacuum off: the sweeper's VACUUM
# runs at a fixed point of each cycle instead of whenever autovacuum wakes.
as_pg "$PGBIN/pg_ctl" -D "$TMP/pg" -l "$TMP/pg.log" -w -o "-c listen_addresses=127.0.0.1 \
  -p $PG_PORT -k $TMP -c autovacuum=off -c fsync=off -c synchronous_commit=off \
  -c full_page_writes=off -c wal_level=minimal -c max_wal_senders=0" start >/dev/null

redis() { redis-cli -h 127.0.0.1 -p "$REDIS_PORT" "$@"; }
psql_on() { local db=$1; shift; psql -h "$TMP" -p "$PG_PORT" -U postgres -d "$db" -AtqX -v ON_ERROR_STOP=1 "$@"; }
for _ in $(seq 100); do redis ping >/dev/null 2>&1 && break; sleep 0.1; done
redis ping >/dev/null || { say "redis-server did not start: $(tail -n 3 "$TMP/redis/log")"; exit 1; }
say "redis $(redis-server --version | grep -o 'v=[^ ]*'), $(psql_on postgres -c 'SHOW server_version') on ports $REDIS_PORT, $PG_PORT"

# (Not `$2 + 0`: awk prints numbers past 2^31 in exponent form.)
used_memory() { redis info memory | tr -d '\r' | awk -F: '/^used_memory:/ { print $2 }'; }

# used_memory of n keys with bodies of `body` bytes, less the empty server's. The bodies come
# from Postgres (schema.sql), streamed into redis-cli --pipe.
measure_redis() {
  local n=$1 db=$2
  # The first loads after start allocate 50-100 kB that the server keeps (buffers): two small
  # loads first, so the baseline is an empty server that has been used.
  local warm
  for warm in 1 2; do
    psql_on "$db" -c "SELECT idem_redis_set(i, $TTL) FROM generate_series(1, 1000) AS i" |
      redis --pipe >/dev/null
    redis flushall >/dev/null
  done
  sleep 0.5
  local base
  base=$(used_memory)
  psql_on "$db" -v FETCH_COUNT=1000 -c "SELECT idem_redis_set(i, $TTL) FROM generate_series(1, $n) AS i" |
    redis --pipe >/dev/null
  # Let incremental rehashing finish and the client's buffers go.
  sleep 1
  local keys
  keys=$(redis dbsize)
  [ "$keys" -eq "$n" ] || { say "redis holds $keys keys, not $n"; exit 1; }
  echo $(($(used_memory) - base))
  redis flushall >/dev/null
}

# pg_total_relation_size after a day of steady state with n live keys.
measure_postgres() {
  local n=$1 db=$2 claimed=0 lo hi sweep
  claim() { # requests $1..$2, in batches
    local a=$1 b
    while [ "$a" -le "$2" ]; do
      b=$((a + BATCH - 1))
      [ "$b" -gt "$2" ] && b=$2
      psql_on "$db" -c "SELECT idem_claim($a, $b, $n)" >/dev/null
      a=$((b + 1))
    done
  }
  claim 1 "$n"
  for sweep in $(seq 1 "$SWEEPS"); do
    lo=$((n + (sweep - 1) * n / SWEEPS + 1))
    hi=$((n + sweep * n / SWEEPS))
    claim "$lo" "$hi"
    psql_on "$db" -c "SELECT idem_sweep($hi, $n)" -c "VACUUM idempotency_keys" >/dev/null
  done
  local live
  live=$(psql_on "$db" -c "SELECT count(*) FROM idempotency_keys")
  [ "$live" -eq "$n" ] || { say "postgres holds $live live rows, not $n"; exit 1; }
  psql_on "$db" -c "SELECT pg_total_relation_size('idempotency_keys')"
  # The parts, for docs/KEYSTORE.md.
  psql_on "$db" -F ' ' -c "SELECT 'heap', pg_relation_size(c.oid), 'heap+fsm+vm', pg_table_size(c.oid) - coalesce(pg_total_relation_size(c.reltoastrelid), 0),
      'toast', coalesce(pg_total_relation_size(c.reltoastrelid), 0),
      'pkey', pg_total_relation_size('idempotency_keys_pkey'),
      'claimed_at', pg_total_relation_size('idempotency_keys_claimed_at')
    FROM pg_class c WHERE c.relname = 'idempotency_keys'" >&2
}

if [ "$MODEL" = example ]; then
  cargo build --release --quiet --example keystore-model
  MODEL_BIN=${CARGO_TARGET_DIR:-target}/release/examples/keystore-model
fi
mem_available_kb() { awk '/^MemAvailable:/ { print $2 }' /proc/meminfo; }
pct() { python3 -c "import sys; m, r = float(sys.argv[1]), float(sys.argv[2]); print(f'{100 * (m - r) / r:+.1f}%')" "$1" "$2"; }

if [ "$MODEL" = example ]; then
  printf '| keys | body | Redis model | Redis measured | error | Postgres model | Postgres measured | error |\n'
  printf '|---:|---:|---:|---:|---:|---:|---:|---:|\n'
fi
for body in $BODIES; do
  db=bench_$body
  psql_on postgres -c "CREATE DATABASE $db" >/dev/null
  psql_on "$db" -f bench/keystore/schema.sql >/dev/null
  psql_on "$db" -c "SELECT idem_fill_pool($body)" >/dev/null
  for n in $SIZES; do
    start=$(date +%s)
    redis_model=- pg_model=-
    if [ "$MODEL" = example ]; then
      read -r redis_model pg_model < <("$MODEL_BIN" "$n" "$KEY_BYTES" "$body" |
        python3 -c 'import json, sys; m = json.load(sys.stdin); print(int(m["redis"]), int(m["postgres"]))')
    fi
    if [[ " $STORES " != *" redis "* ]]; then
      redis_measured=skipped
    elif [ "$redis_model" != - ] && [ $((redis_model / 1024)) -gt $(($(mem_available_kb) / 2)) ]; then
      say "skipped Redis at $n x $body B: the model says $redis_model bytes, over half of the memory available"
      redis_measured=skipped
    else
      redis_measured=$(measure_redis "$n" "$db")
    fi
    psql_on "$db" -c "TRUNCATE idempotency_keys" >/dev/null
    say "keys $n, body $body B:"
    pg_measured=skipped
    [[ " $STORES " == *" postgres "* ]] && pg_measured=$(measure_postgres "$n" "$db")
    say "  ($(($(date +%s) - start)) s)"
    if [ "$MODEL" = example ]; then
      redis_error=-
      [ "$redis_measured" != skipped ] && redis_error=$(pct "$redis_model" "$redis_measured")
      pg_error=-
      [ "$pg_measured" != skipped ] && pg_error=$(pct "$pg_model" "$pg_measured")
      printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$body" "$redis_model" "$redis_measured" \
        "$redis_error" "$pg_model" "$pg_measured" "$pg_error"
    else
      printf '%s\t%s\t%s\t%s\n' "$n" "$body" "$redis_measured" "$pg_measured"
    fi
  done
  psql_on postgres -c "DROP DATABASE $db" >/dev/null
done
