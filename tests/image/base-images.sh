#!/usr/bin/env bash
# Makes, from Debian's packages and the npm registry, the two images the Dockerfile is built on
# where no public container registry can be reached:
#
#   localhost/namecard-test/debian:bookworm  Debian's minimal base (mmdebstrap), for the runtime
#   localhost/namecard-test/node:24          the same with Node.js 24 and npm, for the build,
#                                            laid out as the official node image lays them out
#
# Each is made once and kept in podman's store. Usage: tests/image/base-images.sh
set -euo pipefail
cd "$(dirname "$0")"
export CONTAINERS_CONF="$PWD/containers.conf"

DEBIAN=localhost/namecard-test/debian:bookworm
NODE=localhost/namecard-test/node:24

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! podman image exists "$DEBIAN"; then
  echo "[image] making $DEBIAN with mmdebstrap"
  # Slimmed as Debian's own slim images are: no manuals, documentation or translations, no apt lists.
  mmdebstrap --quiet --variant=minbase --include=ca-certificates \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin "$1"/var/log/*.log' \
    bookworm "$work/debian.tar"
  podman import --quiet "$work/debian.tar" "$DEBIAN" >/dev/null
  rm -f "$work/debian.tar"
fi

if ! podman image exists "$NODE"; then
  echo "[image] making $NODE with Node.js 24 and npm from the npm registry"
  npm install --prefix "$work/registry" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    node@24 npm@11 >/dev/null
  mkdir -p "$work/context"
  cp "$work/registry/node_modules/node/bin/node" "$work/context/node"
  cp -r "$work/registry/node_modules/npm" "$work/context/npm"
  # The build reaches the npm registry as this machine does, trusting the authorities it trusts.
  cp "${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}" "$work/context/ca-certificates.crt"
  cat >"$work/context/Containerfile" <<EOF
FROM $DEBIAN
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
CMD ["node"]
EOF
  podman build --quiet --network=host -t "$NODE" "$work/context" >/dev/null
fi
echo "[image] base images ready: $DEBIAN, $NODE"
