# syntax=docker/dockerfile:1
#
# One image with every kruise-ts app; the first argument chooses the process:
#
#   docker build -t kruise-ts:0.1.0 .
#   docker run --rm kruise-ts:0.1.0 dist/cloneset.mjs --help-is-not-a-flag   # exits 2, naming the flag
#
# The apps run as one JavaScript module each (dist/<app>.mjs, `npm run build`: the workspace packages
# and their dependencies bundled, no node_modules in the image). Running the TypeScript sources, as the
# tests and `npm run controllers` do, costs ~45 MiB more resident memory per process and 1.3 s more
# start-up (docs/benchmarks.md, "Memory and idle CPU"). The Helm chart (charts/kruise-ts) passes the
# entrypoint and the flags as the container's args.

ARG NODE_VERSION=24.21.0

# Every dependency (the bundler is a dev dependency; no install scripts), then the bundles.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --ignore-scripts --no-audit --no-fund && npm run build

FROM node:${NODE_VERSION}-bookworm-slim
# npm and corepack are not needed at run time.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack
ENV NODE_ENV=production
# Memory defaults measured in docs/benchmarks.md ("Memory and idle CPU"); the chart sets the same (its nodeFlags,
# as the container's command, and mallocArenaMax) and both can be overridden. A small young
# generation and an old generation that grows by half its live size keep the resident set near the
# live heap (V8 sizes both for throughput), and two malloc arenas instead of glibc's 8 per core keep
# Node's threads from each holding freed memory of their own. (V8's heap flags are not all allowed
# in NODE_OPTIONS, so they are arguments of node.)
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
# Owned by root and not writable by the app's user: the image works with a read-only root filesystem.
COPY --from=build /app/dist /app/dist
# The chart runs the pods as this user too (securityContext.runAsUser/runAsGroup).
USER 65532:65532
ENTRYPOINT ["node", "--max-semi-space-size=2", "--heap-growing-percent=50", "--expose-gc"]
CMD ["dist/cloneset.mjs"]
