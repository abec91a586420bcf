# Starts a throwaway PostgreSQL cluster on loopback for tests and benchmarks, without systemd.
# Source it: `source scripts/postgres.sh [--durable]`. It exports FITCIRCLE_TEST_DATABASE_URL and stops
# the cluster (and deletes its files) when the sourcing shell exits. Installs Debian's postgresql if missing.
# --durable keeps fsync and synchronous_commit on (benchmarks); tests run without them.

fitcircle_pg_durable=false
[ "${1:-}" = "--durable" ] && fitcircle_pg_durable=true

if ! dpkg -l 'postgresql-[0-9]*' 2>/dev/null | grep -q '^ii'; then
    echo "Installing PostgreSQL from Debian's packages..." >&2
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
fitcircle_pg_package=$(dpkg -l 'postgresql-[0-9]*' | awk '/^ii/{print $2}' | sort -V | tail -1)
fitcircle_pg_bin=$(dirname "$(dpkg -L "$fitcircle_pg_package" | grep '/bin/initdb$')")
fitcircle_pg_dir=$(mktemp -d /tmp/fitcircle-pg.XXXXXX)
chown postgres:postgres "$fitcircle_pg_dir"
fitcircle_pg_port=${FITCIRCLE_PG_PORT:-55432}
while (echo >"/dev/tcp/127.0.0.1/$fitcircle_pg_port") 2>/dev/null; do fitcircle_pg_port=$((fitcircle_pg_port + 1)); done

# Tests run in parallel, each with its own pool of up to 20 connections: 200 was reached at times.
fitcircle_pg_options="-p $fitcircle_pg_port -k $fitcircle_pg_dir -c listen_addresses=127.0.0.1 -c max_connections=1000"
$fitcircle_pg_durable || fitcircle_pg_options="$fitcircle_pg_options -c fsync=off -c synchronous_commit=off -c full_page_writes=off"

runuser -u postgres -- "$fitcircle_pg_bin/initdb" -D "$fitcircle_pg_dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
runuser -u postgres -- "$fitcircle_pg_bin/pg_ctl" -D "$fitcircle_pg_dir/data" -l "$fitcircle_pg_dir/server.log" \
    -o "$fitcircle_pg_options" -w start >/dev/null

fitcircle_pg_stop() {
    runuser -u postgres -- "$fitcircle_pg_bin/pg_ctl" -D "$fitcircle_pg_dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$fitcircle_pg_dir"
}
trap fitcircle_pg_stop EXIT

"$fitcircle_pg_bin/psql" -h 127.0.0.1 -p "$fitcircle_pg_port" -U postgres -qc 'CREATE DATABASE fitcircle_test' >/dev/null
export FITCIRCLE_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$fitcircle_pg_port/fitcircle_test?sslmode=disable"
echo "PostgreSQL $("$fitcircle_pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$fitcircle_pg_port" >&2
