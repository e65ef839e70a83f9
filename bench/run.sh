#!/usr/bin/env bash
# Load test of a running `catalog serve` (issue 5). Seeds a catalog once
# (cached by size), starts the server and a bare net/http "ceiling" server,
# runs every scenario with wrk in one run and prints a Markdown table of
# throughput as a fraction of the ceiling, p99 latency and errors.
#
#   bench/run.sh                      # 1,000,000 clips and movies, 15 s each
#   CLIPS=100000 MOVIES=100000 DURATION=5s bench/run.sh
#
# Needs wrk (Debian: apt-get install wrk) and curl. Traffic goes only to
# 127.0.0.1; every wrk run is bounded by DURATION.
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

command -v wrk >/dev/null || { echo "wrk not found: apt-get install wrk" >&2; exit 1; }
mkdir -p "$OUT"
elapsed() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e-s}'; }
go build -o "$OUT/catalog" ./cmd/catalog
go build -o "$OUT/ceiling" ./bench/ceiling

if [[ "$DB" != postgres* && ! -f "$DB" ]]; then
  echo "seeding $CLIPS clips and $MOVIES movies into $DB" >&2
  start=$(date +%s.%N)
  "$OUT/catalog" seed --db "$DB" --clips "$CLIPS" --movies "$MOVIES" >&2
  echo "seed: $(elapsed "$start") s" >&2
fi

# An API token for the editor of the "+ edits" scenarios (issue 11).
token=$("$OUT/catalog" token create --db "$DB" --name bench-editor --scope clips:write 2>/dev/null)

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

rm -rf "$OUT/snapshots"
start=$(date +%s.%N)
"$OUT/catalog" serve --db "$DB" --clips-addr "$CLIPS_ADDR" --movies-addr "$MOVIES_ADDR" \
  --snapshot-dir "$OUT/snapshots" 2>"$OUT/serve.log" >/dev/null &
serve_pid=$!; pids+=("$serve_pid")
"$OUT/ceiling" -addr "$CEILING_ADDR" 2>/dev/null & pids+=("$!")

for _ in $(seq 600); do
  curl -fs "http://$CLIPS_ADDR/api/health" >/dev/null && curl -fs "http://$CEILING_ADDR/" >/dev/null && break
  sleep 0.2
done
for _ in $(seq 1200); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://$MOVIES_ADDR/api/movies/snapshot" || true)
  [[ "$code" == 200 ]] && break
  sleep 0.1
done
snapshot_s=$(elapsed "$start")
# Both search indexes log when they answer ("search index ready", or
# "... ready from its file" when started from their files); until then
# lists wait, then answer 503.
for _ in $(seq 1200); do
  [[ $(grep -c '"search index ready' "$OUT/serve.log" || true) -ge 2 ]] && break
  sleep 0.1
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

clip_pages=$(( (CLIPS + 19) / 20 ))
movie_pages=$(( (MOVIES + 19) / 20 ))

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
  "/api/jav?pg={1-100} + edits|/api/jav?pg={page}|100|0.50|50|$MOVIES_ADDR"
  "/api/movies + edits|/api/movies|1|0.50|50|$MOVIES_ADDR"
  "/api/clips?page={1-last} + edits|/api/clips?page={page}|$clip_pages|0.15|50|$CLIPS_ADDR"
  "/api/movies?fields=...&page={1-last} + edits|/api/movies?fields=id,title,slug,poster2_url,year&page={page}|$movie_pages|0.15|50|$MOVIES_ADDR"
)

peak_rss() { awk '/VmHWM/{printf "%.0f", $2/1024}' "/proc/$serve_pid/status"; }

# to_ms converts wrk's latency ("812.00us", "3.21ms", "1.02s") to ms.
to_ms() { awk -v v="$1" 'BEGIN{ n=v+0; if (v ~ /us$/) n/=1000; else if (v ~ /ms$/) n=n; else if (v ~ /s$/) n*=1000; printf "%.2f", n }'; }

echo
echo "Machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "Data: $CLIPS clips, $MOVIES movies; wrk -t$THREADS -c$CONNS -d$DURATION, Accept-Encoding: gzip"
echo "First snapshot ready after serve start: ${snapshot_s} s"
echo "Search indexes ready after serve start: ${search_s} s (peak RSS then: $(peak_rss) MB)"
echo
echo "One request at a time, unloaded (ms, curl, no gzip):"
echo
echo "| query | total | first | pages 2 and 3 |"
echo "|---|---:|---:|---:|"
printf '%s\n' "${single_rows[@]}"
echo
echo "| scenario | req/s | ratio | goal | p99 ms | goal p99 | errors | non-2xx | ok | serve peak RSS MB | edits landed |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"
ceiling=0
for s in "${scenarios[@]}"; do
  IFS='|' read -r name path max goal goal_p99 base <<<"$s"
  [[ "$name" == ceiling || "$name" =~ $ONLY ]] || continue
  edits=""
  if [[ "$name" == *"+ edits" ]]; then
    : >"$OUT/edits.txt"
    edit_clips "$OUT/edits.txt" & editor=$!; pids+=("$editor")
  fi
  out=$(wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s bench/scenario.lua "http://$base" -- "$path" "$max" "$OUT/words.txt" "$OUT/words-more.txt" "$OUT/words-pages.txt")
  if [[ -n "${editor:-}" ]]; then
    touch "$OUT/edits.txt.stop"; wait "$editor" 2>/dev/null || true; editor=""
    edits="$(grep -c '^200$' "$OUT/edits.txt" || true) of $(wc -l <"$OUT/edits.txt")"
  fi
  echo "$out" > "$OUT/wrk-$(echo "$name" | tr -c 'a-zA-Z0-9' '_').txt"
  rps=$(echo "$out" | awk '/Requests\/sec/{print $2}')
  p99=$(to_ms "$(echo "$out" | awk '$1=="99%"{print $2}')")
  non2xx=$(echo "$out" | awk '/Non-2xx/{print $NF}'); non2xx=${non2xx:-0}
  errors=$(echo "$out" | awk -F'[ ,]+' '/Socket errors/{print $4+$6+$8+$10}'); errors=${errors:-0}
  if [[ "$name" == ceiling ]]; then
    ceiling=$rps
    echo "| ceiling (bare net/http, 6 KB) | $rps | 1.00 | | $p99 | | $errors | $non2xx | | $(peak_rss) | |"
    continue
  fi
  ratio=$(awk -v a="$rps" -v b="$ceiling" 'BEGIN{printf "%.2f", a/b}')
  ok=$(awk -v r="$ratio" -v g="$goal" -v p="$p99" -v gp="$goal_p99" -v e="$errors" -v n="$non2xx" \
    'BEGIN{print (r>=g && p<=gp && e==0 && n==0) ? "yes" : "NO"}')
  echo "| \`$name\` | $rps | $ratio | >= $goal | $p99 | <= $goal_p99 | $errors | $non2xx | $ok | $(peak_rss) | $edits |"
done
echo
echo "Peak RSS of serve: $(peak_rss) MB"
