# One image for every Puente process: the seven services and the gateway (which also serves web/dist).
# Backend code is TypeScript run directly by Node 24's type stripping, so there is no backend build step.
# docker-compose.yml picks the process with `command:`; the default is the gateway.
#
#   docker build -t puente-app .
#   docker run --rm -e SERVICE_URLS=... -p 8080:8080 puente-app
#
# Plain Dockerfile syntax only (no RUN --mount), so both the classic builder and BuildKit can build it.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- base: Node 24 and quiet npm ---------------------------------------------------------------------
FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false

# ---- manifests: only what `npm ci` needs, so dependency layers stay cached while sources change ---------
FROM base AS manifests
COPY package.json package-lock.json ./
# npm ci's postinstall applies these (patch-package) to the installed dependencies.
COPY patches patches/
COPY packages/contracts/package.json packages/contracts/
COPY packages/platform/package.json packages/platform/
COPY packages/testkit/package.json packages/testkit/
COPY services/identity/package.json services/identity/
COPY services/accounts/package.json services/accounts/
COPY services/exchange/package.json services/exchange/
COPY services/rating/package.json services/rating/
COPY services/notification/package.json services/notification/
COPY services/subscription/package.json services/subscription/
COPY services/audit/package.json services/audit/
COPY gateway/package.json gateway/
COPY web/package.json web/
COPY infra/package.json infra/

# ---- deps: every dependency, dev included (vite and friends build the web app) --------------------------
FROM manifests AS deps
RUN npm ci

# ---- web: build the web app into web/dist -----------------------------------------------------------------
FROM deps AS web
COPY . .
RUN npm run build -w @puente/web

# ---- prod-deps: runtime dependencies only (no vite, vitest, typescript, or the `node` binary package) -----
FROM manifests AS prod-deps
RUN npm ci --omit=dev && npm cache clean --force

# ---- runtime ---------------------------------------------------------------------------------------------
FROM base AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0
# node_modules at the root and inside workspaces (npm nests some), then the sources, then the built web app.
# Everything stays owned by root: the processes only read /app.
COPY --from=prod-deps /app ./
COPY . .
COPY --from=web /app/web/dist ./web/dist
# The folders a process may write: exchange's chat attachments (a volume in compose), and outgoing mail where MAIL_DIR
# is set explicitly instead of SMTP_URL.
RUN mkdir -p /var/lib/puente/mail /var/lib/puente/attachments && chown node /var/lib/puente/mail /var/lib/puente/attachments
USER node
EXPOSE 8080 3001 3002 3003 3004 3005 3006 3007
CMD ["node", "gateway/src/server.ts"]
