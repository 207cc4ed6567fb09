# paysvc: the server from this repository, built with the commands CI runs (.ci/run: `npm ci --no-audit
# --no-fund`) plus `npm run build`, and started as `npm start` starts it. deploy/README.md has the details;
# a test (packages/server/test/operations/deploy.test.ts) keeps this file in step with the code.
FROM node:20-bookworm-slim
WORKDIR /app

# Dependencies first, so a source change does not reinstall them. The full install, as CI's: the start
# script falls back to tsx (a dev dependency) if the build is ever older than the sources.
COPY package.json package-lock.json ./
COPY packages/server/package.json packages/server/
COPY packages/sdk/package.json packages/sdk/
RUN npm ci --no-audit --no-fund

COPY . .
RUN npm run build && mkdir -p /data && chown node:node /data

# Listen on every interface inside the container; the data directory (sandbox database, credentials,
# master key) is a volume.
ENV HOST=0.0.0.0 PORT=8080 PAYSVC_DATA_DIR=/data
VOLUME /data
EXPOSE 8080
USER node

# What `npm start` runs, without npm in between: node is PID 1 and gets SIGTERM itself (it drains).
CMD ["node", "packages/server/src/cli/launch.mjs", "start"]
