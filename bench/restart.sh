#!/usr/bin/env bash
# Times a serve start on an existing database: from the start of the
# process to the first search answered (200) by each service, then the
# process's memory once both are ready. Run it twice: the first start
# builds the indexes (and writes their files), the second serves from
# the files. Usage: bench/restart.sh DB [BINARY]
# Prints one line per service and one for memory; serve's own log
# (which states how each index started and how long its file took to
# write) is left in $OUT/restart-serve.log.
set -euo pipefail
DB=$1
BIN=${2:-./catalog}
OUT=${OUT:-/tmp}
CLIPS=127.0.0.1:${CLIPS_PORT:-18480}
MOVIES=127.0.0.1:${MOVIES_PORT:-18481}

now() { date +%s.%N; }
start=$(now)
"$BIN" serve --db "$DB" --clips-addr "$CLIPS" --movies-addr "$MOVIES" 2>"$OUT/restart-serve.log" &
pid=$!
trap 'kill -INT $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT

# first200 URL: seconds from start until URL answers 200.
first200() {
	until [ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" = 200 ]; do
		kill -0 $pid 2>/dev/null || { echo "serve exited" >&2; exit 1; }
		sleep 0.05
	done
	echo "$(now) - $start" | bc
}
echo "clips  first search answered after $(first200 "http://$CLIPS/api/clips?q=a") s"
echo "movies first search answered after $(first200 "http://$MOVIES/api/movies?q=a") s"
sleep 2 # the garbage of the start collected
grep -E '^(VmRSS|RssAnon|RssFile)' /proc/$pid/status | tr -s ' \t' ' ' | paste -sd ' '
echo "CPU after ready: $(awk '{print ($14+$15)/100 " s"}' /proc/$pid/stat)"
kill -INT $pid
wait $pid || true
trap - EXIT
