# syntax=docker/dockerfile:1
# `npm run image:smoke` (CI's last step) smokes the server this image runs: the standalone build laid out and
# started exactly as here (`node start.mjs`, the sandbox beside it), its HEALTHCHECK command, the deployment
# smoke (e2e/remote.spec.ts). The image itself is built and smoked only where a container engine runs and can
# pull the base image: none on the CI machines (a docker client without a daemon), so this file's own steps
# are not exercised there.
# Collections Console as a container: the standalone Next.js server, as a non-root user, no secret in any
# layer (API_KEY, INDEX_SECRET, DATABASE_URL, OIDC_* and DASHBOARD_USERS come from the environment at run
# time). With API_BASE_URL unset it serves the embedded sandbox, for a demo: `docker run -p 3000:3000 IMAGE`.
# compose.yaml runs two replicas against PostgreSQL 15. README "Operating" says more.
ARG NODE_IMAGE=node:20-bookworm-slim

# Dependencies, with better-sqlite3 compiled (or its prebuilt binary fetched) for this image's glibc.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# The standalone server (.next/standalone: server.js and only the node_modules it needs), and the sandbox
# bundled into one file (better-sqlite3 left to the standalone's node_modules).
FROM deps AS build
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1 NEXT_OUTPUT=standalone
RUN npx next build \
  && npx esbuild sandbox/main.ts --bundle --platform=node --format=esm --target=node20 \
     --external:better-sqlite3 --outfile=.next/standalone/sandbox.mjs \
  && cp scripts/image-start.mjs .next/standalone/start.mjs

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOSTNAME=0.0.0.0
WORKDIR /app
RUN groupadd --system --gid 1001 console \
  && useradd --system --uid 1001 --gid console --home /app console \
  && mkdir -p /app/.data && chown console:console /app/.data
COPY --from=build --chown=console:console /app/.next/standalone ./
COPY --from=build --chown=console:console /app/.next/static ./.next/static
USER console
EXPOSE 3000
# The load balancer's question (contract section 11): 200 while the process can serve.
HEALTHCHECK --interval=15s --timeout=3s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "start.mjs"]
