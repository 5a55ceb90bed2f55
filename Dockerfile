# The racelab server in a container, for docker-compose.yml's `server` and `workers`
# profiles: the page, the WebSocket and the worker processes, next to the compose file's
# Redis and PostgreSQL. redis-server is installed for the labs' own nodes (failover,
# redlock). The same image runs a worker agent in each `worker` container of the `workers`
# profile (its command: node server/dist/worker/agent.js --server racelab:7071).
FROM node:20-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends redis-server iproute2 nftables faketime \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /racelab
COPY package.json package-lock.json tsconfig.base.json ./
COPY shared ./shared
COPY server ./server
COPY tools ./tools
COPY web ./web
COPY e2e/package.json ./e2e/package.json
RUN npm ci --no-audit --no-fund && npm run build
ENV HOST=0.0.0.0 PORT=7070
EXPOSE 7070
CMD ["node", "server/dist/main.js"]
