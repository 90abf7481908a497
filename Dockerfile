# Namecard's container image (docs/admin/deploying.md).
#
#   docker build -t namecard \
#     --build-arg VERSION="$(node -p 'require("./package.json").version')" \
#     --build-arg REVISION="$(git rev-parse HEAD)" .
#
# Two bases, both build arguments so that a mirror or a hardened base can be swapped in:
# NODE_IMAGE builds (Node.js 24 LTS with npm), RUNTIME_IMAGE runs (Debian, with Node's
# binary copied in and nothing else: no npm, compiler or sources).
ARG NODE_IMAGE=docker.io/library/node:24-bookworm-slim
ARG RUNTIME_IMAGE=docker.io/library/debian:bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The build tools are development dependencies, installed whatever NODE_ENV the base sets.
RUN --mount=type=cache,target=/root/.npm npm ci --include=dev --no-audit --no-fund --loglevel=error
COPY . .
# A production build (React's production bundle, the database on its own thread), readable by
# the unprivileged user the image runs as and owned by root, so that user cannot change it.
RUN NODE_ENV=production npm run build && chmod -R a+rX build

# The production dependencies only: npm keeps the development tools that a dependency names as
# optional peers, which the script then removes.
FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/prune-to-production.js ./scripts/
RUN --mount=type=cache,target=/root/.npm NODE_ENV=production npm ci --omit=dev --no-audit --no-fund --loglevel=error \
 && node scripts/prune-to-production.js

FROM ${RUNTIME_IMAGE}
ARG VERSION=dev
ARG REVISION=unknown
ARG SOURCE=""
LABEL org.opencontainers.image.title="Namecard" \
      org.opencontainers.image.description="Self-hosted digital business cards and company directory" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="LicenseRef-Namecard"

# An unprivileged user with a fixed id, so that a volume's owner can be set before the first start.
RUN groupadd --system --gid 10001 namecard \
 && useradd --system --uid 10001 --gid namecard --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin namecard \
 && mkdir -p /data \
 && chown namecard:namecard /data \
 && chmod 0700 /data

COPY --from=build /usr/local/bin/node /usr/local/bin/node
WORKDIR /app
# What the server reads at run time, and only that: the build (the server, the browser's files,
# the empty database template, the operator's commands), the migrations and the production
# dependencies. The preview image's fonts are the self-hosted ones in node_modules, so the
# image needs no system fonts.
COPY --from=build /app/package.json /app/server.js ./
COPY --from=build /app/server/serve.js /app/server/processes.js ./server/
COPY --from=build /app/drizzle ./drizzle
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=build /app/build ./build

ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=3000
USER 10001:10001
VOLUME ["/data"]
EXPOSE 3000
# The server ends requests in flight for up to 10 seconds after SIGTERM: give the container a
# stop timeout above that (compose.yaml sets 30 seconds).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.js"]
