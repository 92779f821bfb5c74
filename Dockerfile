# Praksis in a container (README: "Run it as a service"): a build stage with the devDependencies,
# then a runtime image with the production dependencies and the build only, run as the unprivileged
# user `node`, with DATA_DIR (the embedded PostgreSQL, the secret, the outbox) in a volume.
#
#   docker build -t praksis .
#   docker run --stop-timeout 40 -p 3000:3000 -v praksis-data:/var/lib/praksis --env-file praksis.env praksis
#
# `docker stop` sends SIGTERM to server.mjs (through tini): it drains its app processes
# (SHUTDOWN_GRACE_SECONDS, 20 s) and stops its PostgreSQL; Docker's own wait is 10 s unless
# --stop-timeout (or compose's stop_grace_period) gives it more, as above.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
# tini as PID 1 passes SIGTERM on and reaps what a killed PostgreSQL leaves behind.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    DATA_DIR=/var/lib/praksis \
    PORT=3000 \
    HOST=0.0.0.0 \
    SHUTDOWN_GRACE_SECONDS=20
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/build ./build
COPY server.mjs ./
COPY scripts ./scripts
COPY drizzle ./drizzle
COPY resources ./resources
COPY public ./public
RUN mkdir -p /var/lib/praksis && chown node:node /var/lib/praksis && chmod 0700 /var/lib/praksis
USER node
VOLUME ["/var/lib/praksis"]
EXPOSE 3000
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "server.mjs"]
