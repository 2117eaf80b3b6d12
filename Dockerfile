# syntax=docker/dockerfile:1
#
# One image with every kruise-ts app; the first argument chooses the app:
#
#   docker build -t kruise-ts:0.1.0 .
#   docker run --rm kruise-ts:0.1.0 apps/cloneset/src/main.ts --help-is-not-a-flag   # exits 2, naming the flag
#
# The apps run from their TypeScript sources: Node 24 strips the types and `--conditions=@kruise-ts/source`
# resolves the workspace packages to their `src/` (no build step, no dist/). The Helm chart
# (charts/kruise-ts) passes the entrypoint and the flags as the container's args.

ARG NODE_VERSION=24.21.0

# Production dependencies only (no TypeScript, vitest, eslint or nx; no install scripts).
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
# npm and corepack are not needed at run time.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and not writable by the app's user: the image works with a read-only root filesystem.
COPY --from=build /app /app
# The chart runs the pods as this user too (securityContext.runAsUser/runAsGroup).
USER 65532:65532
ENTRYPOINT ["node", "--conditions=@kruise-ts/source"]
CMD ["apps/cloneset/src/main.ts"]
