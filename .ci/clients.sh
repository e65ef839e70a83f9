#!/usr/bin/env bash
# Clients generated from the OpenAPI documents as the services serve
# them, with no warnings:
#   - TypeScript, by openapi-typescript (npm), type-checked by tsc;
#   - Go, by oapi-codegen (Go module proxy): internal/gen/clipclient and
#     internal/gen/movieclient, committed so that go test ./... needs
#     only Go (their tests read a live serve --demo). Regenerating must
#     give the committed bytes.
#
#   bash .ci/clients.sh CLIPS.json MOVIES.json [--write]
#
# --write replaces the committed Go clients instead of comparing. Get
# the documents from a running serve (go run ./cmd/catalog serve --demo):
#   curl -o clips.json http://127.0.0.1:8080/api/openapi.json
#   curl -o movies.json http://127.0.0.1:8081/api/openapi.json
set -euo pipefail
clips=$(realpath "$1") movies=$(realpath "$2") write=${3:-}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Fails on any output of a generator beyond its banner and result lines.
quiet() {
	local log=$work/log
	"$@" >"$log" 2>&1 || { cat "$log" >&2; return 1; }
	if grep -v -e '^✨ openapi-typescript' -e '^🚀 ' "$log" | grep -q .; then
		echo "$*: the generator warned:" >&2
		cat "$log" >&2
		return 1
	fi
}

if command -v npm >/dev/null; then
	npm install --prefix "$work/ts" --no-audit --no-fund --silent openapi-typescript@7.13.0 typescript@5.9.3 >/dev/null
	for s in clips movies; do
		doc=$clips
		[ "$s" = movies ] && doc=$movies
		quiet "$work/ts/node_modules/.bin/openapi-typescript" "$doc" -o "$work/ts/$s.d.ts"
	done
	# The generated types compile, and a response reads as typed.
	cat >"$work/ts/check.ts" <<'TS'
import type { paths as clips } from "./clips";
import type { paths as movies } from "./movies";
type ClipList = clips["/api/clips"]["get"]["responses"][200]["content"]["application/json"];
type MovieList = movies["/api/movies"]["get"]["responses"][200]["content"]["application/json"];
export const total = (c: ClipList, m: MovieList): number => c.meta.total + m.total;
TS
	"$work/ts/node_modules/.bin/tsc" --noEmit --strict "$work/ts/check.ts"
	echo "clients: TypeScript generated and type-checked ($(cat "$work/ts/"*.d.ts | wc -l) lines)"
else
	echo "warning: no npm; the TypeScript client is not generated" >&2
fi

oapi=(go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2)
for s in clip movie; do
	doc=$clips
	[ "$s" = movie ] && doc=$movies
	dir=internal/gen/${s}client
	quiet "${oapi[@]}" -config "$dir/oapi-codegen.yaml" -o "$work/$s.gen.go" "$doc"
	if [ "$write" = --write ]; then
		cp "$work/$s.gen.go" "$dir/client.gen.go"
	elif ! cmp -s "$work/$s.gen.go" "$dir/client.gen.go"; then
		echo "$dir/client.gen.go differs from what the served document generates:" >&2
		diff -u "$dir/client.gen.go" "$work/$s.gen.go" | head -40 >&2
		echo "regenerate: bash .ci/clients.sh CLIPS.json MOVIES.json --write" >&2
		exit 1
	fi
done
echo "clients: Go generated${write:+ and written}, the same as committed${write:+ from now on}"
