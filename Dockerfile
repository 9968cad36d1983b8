# syntax=docker/dockerfile:1
# L2 — multi-stage build: compile and build native modules in a full image, run as a non-root user in a slim one.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# Compilers for native modules (bcrypt ships prebuilds; better-sqlite3 may compile from source).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# The workspace package the service depends on (the transparency log, ADR 15): its manifest before `npm ci`, which
# links it into node_modules/@l2/tlog. The L1 kit's workspace is not needed and not copied.
COPY packages/tlog/package.json ./packages/tlog/
# Scripts are skipped here because `prepare` needs the sources; native modules are built explicitly instead (and
# `npm run build` below patches the PostgreSQL driver: scripts/patch-postgres-driver.js, docs/adr/0018).
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild bcrypt better-sqlite3
COPY tsconfig.json tsconfig.build.json ./
COPY packages/tlog/tsconfig.json packages/tlog/tsconfig.build.json ./packages/tlog/
COPY packages/tlog/src ./packages/tlog/src
COPY scripts ./scripts
COPY src ./src
# Builds packages/tlog, then the service against it.
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=8200 \
    HOST=0.0.0.0 \
    SECRETS_DIR=/run/secrets \
    STORE=sqlite:/app/data/l2.sqlite
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
# node_modules/@l2/tlog links to packages/tlog: its manifest and built files.
COPY --from=build /app/packages/tlog/package.json ./packages/tlog/package.json
COPY --from=build /app/packages/tlog/dist ./packages/tlog/dist
COPY --from=build /app/dist ./dist
COPY package.json README.md ./
COPY bin ./bin
COPY docs/screenshots ./docs/screenshots
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 8200
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8200) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/main.js"]
