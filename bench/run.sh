#!/usr/bin/env bash
# Load test of a running `catalog serve` (issue 5). Seeds a catalog once
# (cached by size), starts the server and a bare net/http "ceiling" server,
# runs every scenario with wrk in one run and prints a Markdown table of
# throughput as a fraction of the ceiling, p99 latency and errors.
#
#   bench/run.sh                      # 1,000,000 clips and movies, 15 s each
#   CLIPS=100000 MOVIES=100000 DURATION=5s bench/run.sh
#   DB=postgres://... bench/run.sh    # PostgreSQL: two serve instances share the load
#   WRITES=1 bench/run.sh             # every scenario beside the write stream (ONLY matches names without " + writes")
#   FROM_START=20 bench/run.sh        # also time requests from serve's first second
#
# DB=postgres://... (an empty database is seeded) runs INSTANCES (default
# 2) serve processes on it; each scenario's wrk connections are split
# between them (one wrk per instance, their req/s summed, the worst p99
# shown). With pg_stat_statements loaded (shared_preload_libraries) and
# created in that database, each scenario also reports PostgreSQL's
# statements, execution time and rows per request, and, when the server
# runs on this machine, its processes' CPU per request beside serve's.
# It resets pg_stat_statements for the whole cluster: use a cluster of
# your own (CATALOG_PG_STATE=/tmp/mine.state bash .ci/postgres.sh start).
#
# WRITES=1 runs every scenario beside the write stream of issue 19: a
# clip title edited every 0.1 s (PATCH) and IMPORT_RATE (default 750)
# new movies a second (POST /api/import/movies), both with an API token,
# on either engine; the table says how many edits and movies landed.
#
# FROM_START=N times every request of N seconds from serve's start, one
# every 0.1 s of each kind (one-character searches, a common word, deep
# pages, details), before the scenarios, and prints the slowest.
#
# Needs wrk (Debian: apt-get install wrk) and curl (psql for PostgreSQL).
# Traffic goes only to 127.0.0.1 and DB; every wrk run is bounded by
# DURATION.
set -euo pipefail
cd "$(dirname "$0")/.."

CLIPS=${CLIPS:-1000000}
MOVIES=${MOVIES:-1000000}
DURATION=${DURATION:-15s}
THREADS=${THREADS:-2}
CONNS=${CONNS:-64}
ONLY=${ONLY:-.}           # regular expression: run only matching scenarios (the ceiling always runs)
OUT=${OUT:-bench/results}
CLIPS_ADDR=127.0.0.1:${CLIPS_PORT:-18080}
MOVIES_ADDR=127.0.0.1:${MOVIES_PORT:-18081}
CEILING_ADDR=127.0.0.1:${CEILING_PORT:-18090}
DB=${DB:-$OUT/bench-$CLIPS-$MOVIES.db}
PG=""; [[ "$DB" == postgres* ]] && PG=1
INSTANCES=${INSTANCES:-$([[ -n "$PG" ]] && echo 2 || echo 1)}
WRITES=${WRITES:-}
IMPORT_RATE=${IMPORT_RATE:-750}
FROM_START=${FROM_START:-0}

command -v wrk >/dev/null || { echo "wrk not found: apt-get install wrk" >&2; exit 1; }
mkdir -p "$OUT"
elapsed() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e-s}'; }
# BIN=path runs that catalog binary instead of one built from this tree
# (an A/B of two builds on the same data).
if [[ -n "${BIN:-}" ]]; then cp "$BIN" "$OUT/catalog"; else go build -o "$OUT/catalog" ./cmd/catalog; fi
go build -o "$OUT/ceiling" ./bench/ceiling

pg_sql() { psql "$DB" -XAtq -c "$1"; }
if [[ -n "$PG" ]]; then
  "$OUT/catalog" migrate --db "$DB" >/dev/null
  if [[ $(pg_sql 'SELECT n FROM movie_count') == 0 ]]; then
    echo "seeding $CLIPS clips and $MOVIES movies into $DB" >&2
    start=$(date +%s.%N)
    "$OUT/catalog" seed --db "$DB" --clips "$CLIPS" --movies "$MOVIES" >&2
    echo "seed: $(elapsed "$start") s" >&2
  fi
elif [[ ! -f "$DB" ]]; then
  echo "seeding $CLIPS clips and $MOVIES movies into $DB" >&2
  start=$(date +%s.%N)
  "$OUT/catalog" migrate --db "$DB" >/dev/null # seed refuses a file that does not exist
  "$OUT/catalog" seed --db "$DB" --clips "$CLIPS" --movies "$MOVIES" >&2
  echo "seed: $(elapsed "$start") s" >&2
fi

# An API token for the editor and the importer of the write stream.
token=$("$OUT/catalog" token create --db "$DB" --name "bench-writer-$$" --scope clips:write,movies:write 2>/dev/null)

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

# Instance i (from 0) listens on the base ports plus 2i; on PostgreSQL
# each keeps its search index files in a folder of its own, as on
# machines of their own.
addr_of() { local host=${1%:*} port=${1##*:}; echo "$host:$((port + 2 * $2))"; }
rm -rf "$OUT"/snapshots*
start=$(date +%s.%N)
serve_pids=()
for ((i = 0; i < INSTANCES; i++)); do
  "$OUT/catalog" serve --db "$DB" --clips-addr "$(addr_of "$CLIPS_ADDR" $i)" --movies-addr "$(addr_of "$MOVIES_ADDR" $i)" \
    --snapshot-dir "$OUT/snapshots$i" $([[ -n "$PG" ]] && echo --index-dir "$OUT/index$i") 2>"$OUT/serve$i.log" >/dev/null &
  serve_pids+=("$!"); pids+=("$!")
done
serve_pid=${serve_pids[0]}
ln -sf serve0.log "$OUT/serve.log"
"$OUT/ceiling" -addr "$CEILING_ADDR" 2>/dev/null & pids+=("$!")

# from_start times one kind of request every 0.1 s for FROM_START
# seconds of serve's start: "kind seconds-since-start status seconds".
from_start() {
  local kind=$1 path=$2 max=$3 base=$4 url
  while awk -v s="$start" -v e="$(date +%s.%N)" -v n="$FROM_START" 'BEGIN{exit !(e-s < n)}'; do
    url="http://$base${path//\{n\}/$(( (RANDOM * 32768 + RANDOM) % max + 1 ))}"
    local at; at=$(elapsed "$start")
    curl -s -o /dev/null --max-time 10 -w "$kind $at %{http_code} %{time_total}\n" "$url" || echo "$kind $at 000 0"
    sleep 0.1
  done
}
if ((FROM_START > 0)); then
  : >"$OUT/from-start.txt"
  first_pids=()
  for probe in "q=a|/api/clips?q=a&page={n}|5|$CLIPS_ADDR" "q=e|/api/movies?q=e&fields=id,title&page={n}|5|$MOVIES_ADDR" \
    "q=the|/api/movies?q=the&page={n}|5|$MOVIES_ADDR" "clips deep page|/api/clips?page={n}|$(( (CLIPS + 19) / 20 ))|$CLIPS_ADDR" \
    "movies deep page|/api/movies?fields=id,title,year&page={n}|$(( (MOVIES + 19) / 20 ))|$MOVIES_ADDR" \
    "movie detail|/api/movies/{n}|$MOVIES|$MOVIES_ADDR" "vod detail|/api.php/provide/vod/?ac=detail&pg={n}|$(( (MOVIES + 19) / 20 ))|$MOVIES_ADDR"; do
    IFS='|' read -r kind path max base <<<"$probe"
    from_start "$kind" "$path" "$max" "$base" >>"$OUT/from-start.txt" & first_pids+=("$!")
  done
  wait "${first_pids[@]}"
fi

for ((i = 0; i < INSTANCES; i++)); do
  for _ in $(seq 600); do
    curl -fs "http://$(addr_of "$CLIPS_ADDR" $i)/api/health" >/dev/null && curl -fs "http://$CEILING_ADDR/" >/dev/null && break
    sleep 0.2
  done
done
# Every instance builds its first snapshot (a read of every movie) at
# start: the scenarios wait for all of them, or an instance's build
# would run inside the first scenarios (and count in PostgreSQL's rows).
for ((i = 0; i < INSTANCES; i++)); do
  for _ in $(seq 1200); do
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://$(addr_of "$MOVIES_ADDR" $i)/api/movies/snapshot" || true)
    [[ "$code" == 200 ]] && break
    sleep 0.1
  done
done
snapshot_s=$(elapsed "$start")
# Both search indexes log when they answer ("search index ready", or
# "... ready from its file" when started from their files); until then
# lists wait, then answer 503.
for ((i = 0; i < INSTANCES; i++)); do
  for _ in $(seq 1200); do
    [[ $(grep -c '"search index ready' "$OUT/serve$i.log" || true) -ge 2 ]] && break
    sleep 0.1
  done
done
search_s=$(elapsed "$start")

# Search words from real titles: every word of 3+ letters on the first pages.
curl -fs "http://$CLIPS_ADDR/api/clips?limit=100" \
  | grep -o '"title":"[^"]*"' | cut -d'"' -f4 | tr ' ' '\n' \
  | awk 'length($0) >= 3' | sort -u > "$OUT/words.txt"
# More terms for {words} (issue 11): every word of both catalogs' titles
# (Latin, Thai, Japanese), their one- and two-character beginnings and
# their single characters.
{ curl -fs "http://$CLIPS_ADDR/api/clips?limit=100"; curl -fs "http://$MOVIES_ADDR/api/movies?limit=100&fields=id,title"; } \
  | grep -o '"title":"[^"]*"' | cut -d'"' -f4 | tr ' ' '\n' | grep . | sort -u > "$OUT/words-all.txt"
{ cat "$OUT/words-all.txt"; LC_ALL=C.UTF-8 grep -oE '^.{1,2}' "$OUT/words-all.txt"; LC_ALL=C.UTF-8 grep -o . "$OUT/words-all.txt"; } \
  | sort -u > "$OUT/words-more.txt"

# The slowest single queries, unloaded (issue 11): each URL once, the
# first time (nothing cached), then two more pages of it (the response
# cache misses, the index's word cache may not).
one_ms() { curl -s -o "$OUT/one.json" -w '%{time_total}' -H 'Accept-Encoding: identity' "$1" | awk '{printf "%.1f", $1*1000}'; }
unloaded=(
  "$CLIPS_ADDR/api/clips?q=" a e t の 1 ab part ตอนที่ "golden sunset" "ab part" "a e"
  "$MOVIES_ADDR/api/movies?q=" a e 1 の ab the "quiet harbor" "a e"
  "$MOVIES_ADDR/api/jav?wd=" a e 1 ab
)
single_rows=()
for term in "${unloaded[@]}"; do
  if [[ "$term" == 127.* ]]; then base=$term; continue; fi
  q=$(printf '%s' "$term" | jq -sRr @uri)
  first=$(one_ms "http://$base$q")
  total=$(grep -o '"total":[0-9]*\|"total":"[0-9]*"' "$OUT/one.json" | head -1 | tr -dc 0-9)
  sep='&page='; [[ "$base" == *jav* ]] && sep='&pg='
  again=$(one_ms "http://$base$q${sep}2"); again3=$(one_ms "http://$base$q${sep}3")
  single_rows+=("| \`${base#*/}$term\` | ${total:-?} | $first | $again, $again3 |")
done

# Words with their last page, for {wordpage} (issue 11).
while read -r w; do
  t=$(curl -fs "http://$CLIPS_ADDR/api/clips?limit=1&q=$(printf '%s' "$w" | jq -sRr @uri)" | grep -o '"total":[0-9]*' | tr -dc 0-9)
  printf '%s\t%d\n' "$w" $(( (${t:-0} + 19) / 20 ))
done < "$OUT/words.txt" > "$OUT/words-pages.txt"

# edit_clips changes the title of a random clip every 0.1 s through
# PATCH /api/clips/{id} with the API token, one status line per edit in $1,
# until the file $1.stop exists (so that no edit is cut off mid-request
# and every status line is written before they are counted).
edit_clips() {
  local i=0
  rm -f "$1.stop"
  while [[ ! -e "$1.stop" ]]; do
    i=$((i + 1))
    curl -s -o /dev/null -w '%{http_code}\n' -X PATCH -H "Authorization: Bearer $token" \
      -H 'Content-Type: application/json' --data "{\"title\":\"Edited clip $i golden sunset part $((i % 40 + 1))\"}" \
      "http://$CLIPS_ADDR/api/clips/$(( (RANDOM * 32768 + RANDOM) % CLIPS + 1 ))" >>"$1" || true
    sleep 0.1
  done
}

# import_movies posts IMPORT_RATE new movies a second (JSON Lines, with
# the API token) to POST /api/import/movies, one status line per post in
# $1, until the file $1.stop exists: a collector's write stream.
import_movies() {
  local i=0 t0
  rm -f "$1.stop"
  while [[ ! -e "$1.stop" ]]; do
    i=$((i + 1)); t0=$(date +%s.%N)
    awk -v run="$$-$RANDOM" -v b="$i" -v n="$IMPORT_RATE" 'BEGIN { for (k = 1; k <= n; k++)
      printf "{\"name\":\"Imported river %s %d %d\",\"year\":\"2024\",\"id_code\":\"BENCH-%s-%d-%d\"}\n", run, b, k, run, b, k }' >"$1.batch"
    curl -s -o /dev/null -w '%{http_code}\n' -H "Authorization: Bearer $token" -H 'Content-Type: application/x-ndjson' \
      --data-binary @"$1.batch" "http://$CLIPS_ADDR/api/import/movies" >>"$1" || true
    sleep "$(awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN{d = 1 - (e - s); print (d > 0 ? d : 0)}')"
  done
}

# PostgreSQL's own cost (PG mode): statements, execution time and rows
# from pg_stat_statements for this database, and the CPU ticks of the
# server's processes when it runs here (0 when it cannot be read).
pg_stats=""
if [[ -n "$PG" ]] && pg_sql 'SELECT 1 FROM pg_stat_statements LIMIT 1' >/dev/null 2>&1; then pg_stats=1; fi
pg_counts() {
  pg_sql "SELECT coalesce(sum(calls), 0), coalesce(sum(total_exec_time), 0), coalesce(sum(rows), 0)
    FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())" | tr '|' ' '
}
pg_master=""
if [[ -n "$PG" ]]; then
  pg_data=$(pg_sql 'SHOW data_directory' 2>/dev/null || true)
  [[ -n "$pg_data" && -r "$pg_data/postmaster.pid" ]] && pg_master=$(head -1 "$pg_data/postmaster.pid")
fi
# cpu_ticks sums user+system ticks of the processes given (and, with
# children=1, of their children living and reaped).
cpu_ticks() {
  local children=$1; shift
  local pids=("$@")
  if [[ "$children" == 1 ]]; then pids+=($(ps -o pid= --ppid "$1" 2>/dev/null)); fi
  # A process may end between ps and cat (PostgreSQL's backends come
  # and go): it no longer counts, and must not fail the pipeline.
  for p in "${pids[@]}"; do cat "/proc/$p/stat" 2>/dev/null || true; done |
    awk -v c="$children" '{ sub(/^.*\) /, ""); t += $12 + $13; if (c == 1 && NR == 1) t += $14 + $15 } END { print t + 0 }'
}
tick_ms=$(( 1000 / $(getconf CLK_TCK) ))

# run_wrk runs one scenario against base on every instance at once
# (THREADS and CONNS split between them) and prints wrk's output of
# each, one after the other.
run_wrk() {
  local path=$1 max=$2 base=$3 n=$INSTANCES outs=() wpids=()
  [[ "$base" == "$CEILING_ADDR" ]] && n=1
  for ((i = 0; i < n; i++)); do
    outs+=("$OUT/wrk-part$i.txt")
    wrk -t"$(( THREADS / n > 0 ? THREADS / n : 1 ))" -c"$(( CONNS / n ))" -d"$DURATION" --latency -s bench/scenario.lua \
      "http://$(addr_of "$base" $i)" -- "$path" "$max" "$OUT/words.txt" "$OUT/words-more.txt" "$OUT/words-pages.txt" >"${outs[$i]}" &
    wpids+=("$!")
  done
  wait "${wpids[@]}"
  cat "${outs[@]}"
}

clip_pages=$(( (CLIPS + 19) / 20 ))
movie_pages=$(( (MOVIES + 19) / 20 ))
# The browse scenarios (issue 39) page one filter and two to their last
# page, read a facet under a filter, and send hit beacons.
one_filter="actor=Aiko%20Tanaka" two_filters="actor=Aiko%20Tanaka&country=Japan"
pages_of() { local t; t=$(curl -fs "http://$MOVIES_ADDR/api/movies?limit=1&fields=id&$1" | grep -o '"total":[0-9]*' | tr -dc 0-9); echo $(( (${t:-0} + 19) / 20 > 0 ? (${t:-0} + 19) / 20 : 1 )); }
one_pages=$(pages_of "$one_filter") two_pages=$(pages_of "$two_filters")

# name | path template | max for {id}/{page} | goal ratio | goal p99 ms | base
# (a name ending in "+ edits" runs with edit_clips going)
scenarios=(
  "ceiling|/|1|1|0|$CEILING_ADDR"
  "/api/clips|/api/clips|1|0.50|50|$CLIPS_ADDR"
  "/api/clips/{id}|/api/clips/{id}|$CLIPS|0.40|50|$CLIPS_ADDR"
  "/api/clips?q={word}|/api/clips?q={word}|1|0.05|100|$CLIPS_ADDR"
  "/api/clips?platform=JAV&page={1-500}|/api/clips?platform=JAV&page={page}|500|0.20|50|$CLIPS_ADDR"
  "/api/clips?page={1-last}|/api/clips?page={page}|$clip_pages|0.20|50|$CLIPS_ADDR"
  "/api/movies|/api/movies|1|0.50|50|$MOVIES_ADDR"
  "/api/movies/{id}|/api/movies/{id}|$MOVIES|0.40|50|$MOVIES_ADDR"
  "/api/movies?fields=...&page={1-last}|/api/movies?fields=id,title,slug,poster2_url,year&page={page}|$movie_pages|0.20|50|$MOVIES_ADDR"
  "/api/jav?pg={1-100}|/api/jav?pg={page}|100|0.30|50|$MOVIES_ADDR"
  "/api/clips?q={1-3 words}|/api/clips?q={words}|1|0.20|50|$CLIPS_ADDR"
  "/api/clips?q={word}&page={1-its last}|/api/clips?{wordpage}|1|0.10|50|$CLIPS_ADDR"
  "/api/movies?q={1-3 words}|/api/movies?q={words}|1|0.20|50|$MOVIES_ADDR"
  "/api/jav?wd={1-3 words}|/api/jav?wd={words}|1|0.20|50|$MOVIES_ADDR"
  "/api/movies?actor=A&page={1-last}|/api/movies?fields=id,title,year&$one_filter&page={page}|$one_pages|0.30|50|$MOVIES_ADDR"
  "/api/movies?actor=A&country=C&page={1-last}|/api/movies?fields=id,title,year&$two_filters&page={page}|$two_pages|0.30|50|$MOVIES_ADDR"
  "/api/movies/facets?field=studio&actor=A&page={1-2}|/api/movies/facets?field=studio&$one_filter&limit=3&page={page}|2|0.30|50|$MOVIES_ADDR"
  "/api/jav?pg={1-100} + edits|/api/jav?pg={page}|100|0.50|50|$MOVIES_ADDR"
  "/api/movies + edits|/api/movies|1|0.50|50|$MOVIES_ADDR"
  "/api/clips?page={1-last} + edits|/api/clips?page={page}|$clip_pages|0.15|50|$CLIPS_ADDR"
  "/api/movies?fields=...&page={1-last} + edits|/api/movies?fields=id,title,slug,poster2_url,year&page={page}|$movie_pages|0.15|50|$MOVIES_ADDR"
  # Last: the beacons' batched hit writes go on for seconds after their
  # scenario, and would count in the next rows' PostgreSQL columns.
  "POST /api/movies/{id}/hit|POST /api/movies/{id}/hit|$MOVIES|0.30|50|$MOVIES_ADDR"
)

peak_rss() { awk '/VmHWM/{printf "%.0f", $2/1024}' "/proc/$serve_pid/status"; }
# The scenarios that run beside the write stream.
[[ -n "$WRITES" ]] && for i in "${!scenarios[@]}"; do
  [[ "${scenarios[$i]}" == ceiling* || "${scenarios[$i]}" == *"+ edits|"* ]] || scenarios[$i]=$(sed 's/|/ + writes|/' <<<"${scenarios[$i]}")
done

# to_ms converts wrk's latency ("812.00us", "3.21ms", "1.02s") to ms.
to_ms() { awk -v v="$1" 'BEGIN{ n=v+0; if (v ~ /us$/) n/=1000; else if (v ~ /ms$/) n=n; else if (v ~ /s$/) n*=1000; printf "%.2f", n }'; }

echo
echo "Machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "Data: $CLIPS clips, $MOVIES movies; wrk -t$THREADS -c$CONNS -d$DURATION, Accept-Encoding: gzip"
echo "Engine: $([[ -n "$PG" ]] && echo "PostgreSQL, $INSTANCES serve instances sharing the load" || echo SQLite)$([[ -n "$WRITES" ]] && echo ", every scenario beside the write stream (a clip edit every 0.1 s, $IMPORT_RATE movies/s imported)")"
if ((FROM_START > 0)); then
  echo
  echo "Every request of the first $FROM_START s after serve started (one every 0.1 s of each kind; 000 = not listening yet):"
  echo
  echo "| kind | requests | first 200 at s | 503s | over 1 s | slowest s | slowest after 2 s |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  awk '{ k = $1; for (i = 2; i < NF - 2; i++) k = k " " $i; at = $(NF-2); code = $(NF-1); t = $NF
         n[k]++; if (code == 200 && !(k in first)) first[k] = at; if (code == 503) u[k]++; if (t > 1) o[k]++
         if (t > m[k]) m[k] = t; if (at >= 2 && t > m2[k]) m2[k] = t }
       END { for (k in n) printf "| %s | %d | %s | %d | %d | %.3f | %.3f |\n", k, n[k], (k in first) ? first[k] : "never", u[k], o[k], m[k], m2[k] }' \
    "$OUT/from-start.txt" | sort
fi
echo "First snapshot ready after serve start: ${snapshot_s} s"
echo "Search indexes ready after serve start: ${search_s} s (peak RSS then: $(peak_rss) MB)"
echo
echo "One request at a time, unloaded (ms, curl, no gzip):"
echo
echo "| query | total | first | pages 2 and 3 |"
echo "|---|---:|---:|---:|"
printf '%s\n' "${single_rows[@]}"
echo
pg_head="" pg_rule=""
[[ -n "$PG" ]] && pg_head=" PG CPU ms/req | PG statements/req | PG exec ms/req | PG rows/req |" pg_rule="---:|---:|---:|---:|"
echo "| scenario | req/s | ratio | goal | p99 ms | goal p99 | errors | non-2xx | ok | serve peak RSS MB | edits landed | movies imported | serve CPU ms/req |$pg_head"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|$pg_rule"
ceiling=0
for s in "${scenarios[@]}"; do
  IFS='|' read -r name path max goal goal_p99 base <<<"$s"
  [[ "$name" == ceiling || "${name% + writes}" =~ $ONLY ]] || continue
  edits="" imported=""
  if [[ "$name" == *"+ edits" || "$name" == *"+ writes" ]]; then
    : >"$OUT/edits.txt"
    edit_clips "$OUT/edits.txt" & editor=$!; pids+=("$editor")
  fi
  if [[ "$name" == *"+ writes" ]]; then
    : >"$OUT/imports.txt"
    import_movies "$OUT/imports.txt" & importer=$!; pids+=("$importer")
  fi
  [[ -n "$pg_stats" ]] && pg_sql 'SELECT pg_stat_statements_reset()' >/dev/null
  serve0=$(cpu_ticks 0 "${serve_pids[@]}") pg0=0; [[ -n "$pg_master" ]] && pg0=$(cpu_ticks 1 "$pg_master")
  out=$(run_wrk "$path" "$max" "$base")
  serve1=$(cpu_ticks 0 "${serve_pids[@]}") pg1=0; [[ -n "$pg_master" ]] && pg1=$(cpu_ticks 1 "$pg_master")
  [[ -n "$pg_stats" ]] && read -r pg_calls pg_ms pg_rows <<<"$(pg_counts)"
  if [[ -n "${editor:-}" ]]; then
    touch "$OUT/edits.txt.stop"; wait "$editor" 2>/dev/null || true; editor=""
    edits="$(grep -c '^200$' "$OUT/edits.txt" || true) of $(wc -l <"$OUT/edits.txt")"
  fi
  if [[ -n "${importer:-}" ]]; then
    touch "$OUT/imports.txt.stop"; wait "$importer" 2>/dev/null || true; importer=""
    imported="$(( $(grep -c '^200$' "$OUT/imports.txt" || true) * IMPORT_RATE )) in $(wc -l <"$OUT/imports.txt") posts"
  fi
  echo "$out" > "$OUT/wrk-$(echo "$name" | tr -c 'a-zA-Z0-9' '_').txt"
  rps=$(echo "$out" | awk '/Requests\/sec/{s += $2} END{printf "%.2f", s}')
  reqs=$(echo "$out" | awk '/requests in/{s += $1} END{print s + 0}')
  p99=$(echo "$out" | awk '$1=="99%"{print $2}' | while read -r v; do to_ms "$v"; echo; done | sort -n | tail -1)
  non2xx=$(echo "$out" | awk '/Non-2xx/{s += $NF} END{print s + 0}')
  errors=$(echo "$out" | awk -F'[ ,]+' '/Socket errors/{s += $4+$6+$8+$10} END{print s + 0}')
  per() { awk -v a="$1" -v n="$reqs" -v f="$2" 'BEGIN{ if (a == "" || n == 0) print "?"; else printf f, a / n }'; }
  pg_cols=" $(per "$(( (serve1 - serve0) * tick_ms ))" "%.3f") |"
  if [[ -n "$PG" ]]; then
    pg_cpu="?"; [[ -n "$pg_master" ]] && pg_cpu=$(per "$(( (pg1 - pg0) * tick_ms ))" "%.3f")
    pg_cols+=" $pg_cpu |"
    if [[ -n "$pg_stats" ]]; then pg_cols+=" $(per "$pg_calls" "%.2f") | $(per "$pg_ms" "%.3f") | $(per "$pg_rows" "%.1f") |"; else pg_cols+=" | | |"; fi
  fi
  if [[ "$name" == ceiling ]]; then
    ceiling=$rps
    echo "| ceiling (bare net/http, 6 KB) | $rps | 1.00 | | $p99 | | $errors | $non2xx | | $(peak_rss) | | | |"
    continue
  fi
  ratio=$(awk -v a="$rps" -v b="$ceiling" 'BEGIN{printf "%.2f", a/b}')
  ok=$(awk -v r="$ratio" -v g="$goal" -v p="$p99" -v gp="$goal_p99" -v e="$errors" -v n="$non2xx" \
    'BEGIN{print (r>=g && p<=gp && e==0 && n==0) ? "yes" : "NO"}')
  echo "| \`$name\` | $rps | $ratio | >= $goal | $p99 | <= $goal_p99 | $errors | $non2xx | $ok | $(peak_rss) | $edits | $imported |$pg_cols"
done
echo
echo "Peak RSS of serve: $(peak_rss) MB"
# The index files are mapped: their pages count in RSS once read, but
# they are the kernel's page cache, which it reclaims under pressure;
# the anonymous part is the process's own memory.
echo "RSS of serve at the end: $(awk '/^RssAnon|^RssFile/{printf "%s %.0f MB  ", $1, $2/1024}' "/proc/$serve_pid/status")"
