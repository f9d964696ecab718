# Rebound's production image (docs/operations.md, "The container image").
#   docker build -t rebound .
#   docker run -p 3000:3000 -v rebound-data:/data rebound
# The build stage has the dev dependencies and compiles; the runtime stage holds only dist/ and the
# production dependencies. Both stages use the same base, so the SQLite binding compiled in the
# first loads in the second.

# Pinned: a new Node or Debian release arrives through a change to this line, not a rebuild.
FROM node:20.20.2-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles its binding when no prebuilt one can be downloaded.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# Dependencies first (a cached layer while only the sources change); the project's own prepare
# script runs with `npm run build` below, once the sources are there.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild better-sqlite3
COPY . .
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:20.20.2-bookworm-slim AS runtime
ENV NODE_ENV=production \
    MALLOC_MMAP_THRESHOLD_=131072 \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATABASE_URL=sqlite:/data/rebound.db \
    REBOUND_DEMO=false
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/scripts/healthcheck.mjs ./scripts/healthcheck.mjs
# SQLite's file lives in a volume owned by the unprivileged user the server runs as.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# The server drains on SIGTERM within REBOUND_SHUTDOWN_GRACE_MS (default 10 s): give `docker stop`
# more than that (`--stop-timeout 15`, compose's stop_grace_period).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
# Two 4 MB semi-spaces instead of V8's 16 MB ones (docs/scaling.md, "What a fresh process is made of").
CMD ["node", "--max-semi-space-size=4", "dist/src/cli/main.js", "serve"]
