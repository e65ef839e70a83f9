#!/usr/bin/env bash
# The deployment files, each checked by the tool made for it (called by
# .ci/run; run from the repository root):
#   - the container image (Containerfile, deploy/container): built with
#     podman, its config checked, and catalog version, catalog health
#     and a short serve --demo run from its unpacked root filesystem, as
#     the image's user (podman run is refused in the CI sandbox);
#   - deploy/compose.yaml: loaded by compose-go, the Compose
#     Specification's reference loader; its VCL compiled by varnishd;
#   - deploy/prometheus: promtool check config, check rules, test rules;
#   - the OpenAPI documents as served: every pattern compiled as
#     ECMA-262 (node), and the clients generated from them.
# Each step prints its time. A tool that cannot be installed (no
# network, not root) is a warning and its step is skipped, as for the
# browser and Varnish tests.
set -euo pipefail
cd "$(dirname "$0")/.."

step_start=0
step() {
	local now
	now=$(date +%s)
	if [ "$step_start" -ne 0 ]; then
		echo "deploy: $step_name took $((now - step_start)) s"
	fi
	step_name=$1
	step_start=$now
	echo "deploy: $step_name"
}

need() { # need COMMAND DEBIAN-PACKAGE...: install when missing
	local cmd=$1
	shift
	command -v "$cmd" >/dev/null && return 0
	(apt-get update && apt-get install -y --no-install-recommends "$@") >/dev/null 2>&1 || true
	if ! command -v "$cmd" >/dev/null; then
		echo "warning: could not install $cmd ($*); its checks are skipped" >&2
		return 1
	fi
}

work=$(mktemp -d)
chmod 0755 "$work"
pids=()
cleanup() {
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	if [ -n "${image_mounted:-}" ]; then podman image unmount "$image" >/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

step "tools"
have_podman=1 have_promtool=1 have_node=1 have_varnishd=1
need podman podman || have_podman=0
need promtool prometheus || have_promtool=0
need node nodejs npm || have_node=0
need varnishd varnish varnish-modules || have_varnishd=0

# The image, and the binary to run: the image's own when podman builds
# it, else one built the same way.
image=localhost/catalog:ci
root=$work/root
if [ "$have_podman" = 1 ]; then
	step "image: podman build"
	bash deploy/container/build.sh "$image"
	step "image: config"
	check_config() {
		local got
		got=$(podman image inspect --format "$1" "$image")
		if [ "$got" != "$2" ]; then
			echo "image config $1: got '$got', want '$2'" >&2
			exit 1
		fi
	}
	check_config '{{.Config.User}}' '65532:65532'
	check_config '{{json .Config.Entrypoint}}' '["/catalog"]'
	check_config '{{json .Config.Cmd}}' '["serve"]'
	check_config '{{range $p, $_ := .Config.ExposedPorts}}{{$p}} {{end}}' '8080/tcp 8081/tcp '
	check_config '{{range $v, $_ := .Config.Volumes}}{{$v}} {{end}}' '/data '
	check_config '{{json .HealthCheck.Test}}' '["CMD","/catalog","health"]'
	env=$(podman image inspect --format '{{range .Config.Env}}{{.}} {{end}}' "$image")
	for want in CATALOG_CLIPS_ADDR=0.0.0.0:8080 CATALOG_MOVIES_ADDR=0.0.0.0:8081 CATALOG_DB=/data/catalog.db; do
		case " $env" in *" $want "*) ;; *) echo "image env: no $want in: $env" >&2; exit 1 ;; esac
	done
	step "image: unpack"
	image_mounted=1
	mnt=$(podman image mount "$image")
	mkdir "$root"
	cp -a "$mnt/." "$root"
	podman image unmount "$image" >/dev/null
	image_mounted=
	[ "$(stat -c '%u:%g %a' "$root/data")" = "65532:65532 755" ] || { echo "/data: $(stat -c '%u:%g %a' "$root/data"), want 65532:65532 755" >&2; exit 1; }
	[ "$(stat -c '%u:%g %a' "$root/tmp")" = "0:0 1777" ] || { echo "/tmp: $(stat -c '%u:%g %a' "$root/tmp"), want 0:0 1777" >&2; exit 1; }
	[ "$(stat -c '%u:%g %a' "$root/catalog")" = "0:0 555" ] || { echo "/catalog: $(stat -c '%u:%g %a' "$root/catalog"), want 0:0 555" >&2; exit 1; }
	grep -q '^catalog:x:65532:65532:' "$root/etc/passwd"
else
	step "binary (no podman: no image)"
	mkdir -p "$root/tmp" && chmod 1777 "$root/tmp"
	CGO_ENABLED=0 go build -trimpath -buildvcs=true -o "$root/catalog" ./cmd/catalog
fi

# The version: a clean clone stamps the commit into the binary.
step "image: catalog version"
as_user=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	as_user=(setpriv --reuid=65532 --regid=65532 --clear-groups)
fi
version=$("${as_user[@]}" "$root/catalog" version)
echo "$version"
if rev=$(git rev-parse --short=12 HEAD 2>/dev/null) && [ -d .git ]; then
	case "$version" in *"$rev"*) ;; *) echo "catalog version: got '$version', want the commit $rev" >&2; exit 1 ;; esac
fi

step "image: serve --demo, catalog health"
"${as_user[@]}" env -i "TMPDIR=$root/tmp" CATALOG_CLIPS_ADDR=127.0.0.1:0 CATALOG_MOVIES_ADDR=127.0.0.1:0 \
	"$root/catalog" serve --demo >"$work/demo.out" 2>"$work/demo.log" &
pids+=($!)
for _ in $(seq 1 240); do
	grep -q '"msg":"listening"' "$work/demo.log" && break
	sleep 0.5
done
listening=$(grep '"msg":"listening"' "$work/demo.log" || true)
case "$listening" in *"\"version\":\"${version#catalog }\""*) ;; *)
	echo "serve --demo: no listening line with the version ${version#catalog }:" >&2
	cat "$work/demo.log" >&2
	exit 1
	;;
esac
clips=$(echo "$listening" | grep -o '"clips_addr":"[^"]*"' | cut -d'"' -f4)
movies=$(echo "$listening" | grep -o '"movies_addr":"[^"]*"' | cut -d'"' -f4)
"${as_user[@]}" "$root/catalog" health --clips-addr "$clips" --movies-addr "$movies"
curl -fsS "http://$clips/api/health" | grep -q "\"version\":\"${version#catalog }\""
curl -fsS -o "$work/clips.openapi.json" "http://$clips/api/openapi.json"
curl -fsS -o "$work/movies.openapi.json" "http://$movies/api/openapi.json"
curl -fsS "http://$movies/api/movies?limit=1" | grep -q '"code":1'

if [ "$have_node" = 1 ]; then
	step "openapi: patterns as ECMA-262"
	node .ci/openapi-patterns.mjs "$work/clips.openapi.json" "$work/movies.openapi.json"
fi
step "openapi: generated clients"
bash .ci/clients.sh "$work/clips.openapi.json" "$work/movies.openapi.json"

step "compose: compose-go"
(cd .ci/composecheck && go run . ../../deploy/compose.yaml)
if [ "$have_varnishd" = 1 ]; then
	step "compose: varnishd -C of its VCL"
	# The instances' host names resolve only inside the compose network.
	mkdir "$work/vcl"
	sed 's/"catalog-[12]"/"127.0.0.1"/' deploy/compose/varnish.vcl >"$work/vcl/varnish.vcl"
	cp deploy/varnish/catalog-rules.vcl "$work/vcl/"
	varnishd -C -n "$work/vcl/n" -f "$work/vcl/varnish.vcl" >"$work/vcl/out" 2>&1 || { cat "$work/vcl/out" >&2; exit 1; }
fi

if [ "$have_promtool" = 1 ]; then
	step "prometheus: promtool"
	promtool check config deploy/prometheus/prometheus.yml
	promtool check rules deploy/prometheus/alerts.yml
	promtool test rules deploy/prometheus/alerts_test.yml
fi
step "done"
