#!/usr/bin/env bash
# Builds the catalog container image (Containerfile at the repository
# root) with podman, or with docker when CONTAINER_ENGINE=docker.
#
#   bash deploy/container/build.sh [IMAGE]      # default localhost/catalog:latest
#
# It builds the static binary here (CGO_ENABLED=0, Go from the host:
# no builder image is pulled) and stages the build context in a
# temporary folder. The binary carries the VCS revision (go build
# -buildvcs=true), which `catalog version`, /api/health and the OpenAPI
# documents report; a build outside a git clone says "dev".
set -euo pipefail
cd "$(dirname "$0")/../.."
image=${1:-localhost/catalog:latest}
engine=${CONTAINER_ENGINE:-podman}

ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
mkdir -p "$ctx/rootfs" "$ctx/data"
CGO_ENABLED=0 go build -trimpath -buildvcs=true -o "$ctx/rootfs/catalog" ./cmd/catalog
chmod 0555 "$ctx/rootfs/catalog"
cp -r deploy/container/etc "$ctx/rootfs/etc"
# Debian's CA certificates (package ca-certificates), for https requests
# from inside the image.
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
	mkdir -p "$ctx/rootfs/etc/ssl/certs"
	cp /etc/ssl/certs/ca-certificates.crt "$ctx/rootfs/etc/ssl/certs/"
fi
mkdir "$ctx/rootfs/tmp"
chmod 1777 "$ctx/rootfs/tmp"

format=()
if [ "$engine" = podman ]; then
	format=(--format docker) # keeps HEALTHCHECK, which the OCI format lacks
fi
"$engine" build "${format[@]}" -f Containerfile -t "$image" "$ctx"
