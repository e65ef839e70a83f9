#!/usr/bin/env bash
# Throw-away PostgreSQL cluster for the catalog's PostgreSQL tests.
#
#   eval "$(bash .ci/postgres.sh start)"   # installs PostgreSQL if missing,
#                                          # starts a cluster, prints
#                                          # export CATALOG_TEST_POSTGRES=...
#   go test ./...
#   bash .ci/postgres.sh restart           # restart the server (same port, same data)
#   bash .ci/postgres.sh stop              # stop it and delete its files
#
# The cluster listens on 127.0.0.1 on a free port with trust
# authentication and lives in a temporary directory. PostgreSQL refuses to
# run as root, so as root the cluster belongs to an unprivileged user
# (catalogci, created when missing). Messages go to standard error; only
# the export line goes to standard output.
# Environment: CATALOG_PG_STATE (state file, default /tmp/catalog-postgres.state),
# CATALOG_PG_USER (the unprivileged user when running as root).
set -euo pipefail

state_file=${CATALOG_PG_STATE:-/tmp/catalog-postgres.state}
ci_user=${CATALOG_PG_USER:-catalogci}

say() { printf 'postgres.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

# find_bindir prints the directory holding initdb and pg_ctl, newest
# major version first, or fails.
find_bindir() {
	local d
	if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
		d=$(dirname "$(readlink -f "$(command -v pg_ctl)")")
		if [ -x "$d/initdb" ] && [ -x "$d/postgres" ]; then
			echo "$d"
			return 0
		fi
	fi
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5 -rn); do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

install_postgres() {
	[ "$(id -u)" = 0 ] || die "PostgreSQL is not installed and we are not root; install Debian's postgresql package first"
	command -v apt-get >/dev/null 2>&1 || die "PostgreSQL is not installed and apt-get is missing; install PostgreSQL first"
	say "installing PostgreSQL from Debian's packages"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	# postgresql-common first, so that the package does not create and
	# start a default cluster we would never use.
	apt-get install -y -qq --no-install-recommends postgresql-common >&2
	if [ -f /etc/postgresql-common/createcluster.conf ]; then
		sed -ri 's/^#?\s*create_main_cluster\s*=.*/create_main_cluster = false/' /etc/postgresql-common/createcluster.conf
	fi
	apt-get install -y -qq --no-install-recommends postgresql >&2
}

# as_owner runs a command as the cluster's owner, from a directory it can read.
as_owner() {
	if [ "$(id -u)" = 0 ]; then
		(cd / && runuser -u "$ci_user" -- "$@")
	else
		(cd / && "$@")
	fi
}

ensure_user() {
	[ "$(id -u)" = 0 ] || return 0
	if ! id "$ci_user" >/dev/null 2>&1; then
		say "creating user $ci_user"
		useradd --system --no-create-home --shell /usr/sbin/nologin "$ci_user" \
			|| useradd -r -M -s /bin/false "$ci_user"
	fi
}

port_in_use() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

free_port() {
	local p i
	for i in $(seq 1 50); do
		p=$((20000 + RANDOM % 40000))
		if ! port_in_use "$p"; then
			echo "$p"
			return 0
		fi
	done
	die "no free local port found"
}

read_state() {
	[ -f "$state_file" ] || return 1
	# shellcheck disable=SC1090
	. "$state_file"
	[ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ]
}

print_env() {
	echo "export CATALOG_TEST_POSTGRES=postgres://$PG_USER@127.0.0.1:$PG_PORT/postgres?sslmode=disable"
}

server_opts() {
	# Durability is pointless for a throw-away test cluster; speed is not.
	echo "-p $1 -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
}

cmd_start() {
	if read_state && as_owner "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" status >/dev/null 2>&1; then
		say "already running (data in $PG_DIR)"
		print_env
		return 0
	fi
	local bindir
	if ! bindir=$(find_bindir); then
		install_postgres
		bindir=$(find_bindir) || die "PostgreSQL was installed but initdb/pg_ctl were not found"
	fi
	ensure_user
	local owner
	if [ "$(id -u)" = 0 ]; then owner=$ci_user; else owner=$(id -un); fi

	PG_DIR=$(mktemp -d /tmp/catalog-pg.XXXXXX)
	PG_BINDIR=$bindir
	PG_USER=$owner
	[ "$(id -u)" = 0 ] && chown "$owner" "$PG_DIR"
	chmod 700 "$PG_DIR"
	say "initialising a cluster in $PG_DIR with $("$bindir/postgres" --version)"
	if ! as_owner "$bindir/initdb" -D "$PG_DIR/data" -U "$owner" --auth=trust \
		--encoding=UTF8 --locale=C --no-sync >"$PG_DIR/initdb.log" 2>&1; then
		cat "$PG_DIR/initdb.log" >&2
		rm -rf "$PG_DIR"
		die "initdb failed"
	fi

	local attempt port=""
	for attempt in 1 2 3 4 5; do
		port=$(free_port)
		if as_owner "$bindir/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
			-o "$(server_opts "$port")" start >&2; then
			break
		fi
		say "start on port $port failed (attempt $attempt)"
		tail -n 5 "$PG_DIR/server.log" >&2 || true
		port=""
	done
	if [ -z "$port" ]; then
		rm -rf "$PG_DIR"
		die "could not start PostgreSQL"
	fi
	PG_PORT=$port
	{
		echo "PG_DIR=$PG_DIR"
		echo "PG_BINDIR=$PG_BINDIR"
		echo "PG_USER=$PG_USER"
		echo "PG_PORT=$PG_PORT"
	} >"$state_file"

	local psql=psql
	[ -x "$bindir/psql" ] && psql=$bindir/psql
	local avail
	avail=$("$psql" -X -A -t -h 127.0.0.1 -p "$port" -U "$owner" -d postgres \
		-c "SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_trgm'")
	[ "$avail" = 1 ] || die "the pg_trgm extension is not available (install postgresql-contrib)"
	say "PostgreSQL is listening on 127.0.0.1:$port (stop it with: bash .ci/postgres.sh stop)"
	print_env
}

cmd_stop() {
	if ! read_state; then
		say "no cluster recorded in $state_file"
		rm -f "$state_file"
		return 0
	fi
	as_owner "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >&2 || true
	rm -rf "$PG_DIR" "$state_file"
	say "stopped and removed $PG_DIR"
}

cmd_restart() {
	read_state || die "no cluster recorded in $state_file; run start first"
	as_owner "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >&2 || true
	as_owner "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
		-o "$(server_opts "$PG_PORT")" start >&2
	print_env
}

# halt and resume stop and start the server without deleting it, for
# testing how clients behave while the database is away.
cmd_halt() {
	read_state || die "no cluster recorded in $state_file; run start first"
	as_owner "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >&2
}

cmd_resume() {
	read_state || die "no cluster recorded in $state_file; run start first"
	as_owner "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
		-o "$(server_opts "$PG_PORT")" start >&2
	print_env
}

cmd_env() {
	read_state || die "no cluster recorded in $state_file; run start first"
	print_env
}

case "${1:-}" in
start) cmd_start ;;
stop) cmd_stop ;;
restart) cmd_restart ;;
halt) cmd_halt ;;
resume) cmd_resume ;;
env) cmd_env ;;
*)
	echo "usage: bash .ci/postgres.sh start|stop|restart|halt|resume|env" >&2
	exit 2
	;;
esac
