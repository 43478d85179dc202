# syntax=docker/dockerfile:1
# Redis for a SpookLudo cluster (docker/compose.cluster.yaml, docs/cluster.md): Debian 12's own
# redis-server, with an append-only file (fsync every second) in /data.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends redis-server \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && mkdir -p /data && chown redis:redis /data
VOLUME ["/data"]
WORKDIR /data
USER redis
EXPOSE 6379
HEALTHCHECK --interval=5s --timeout=3s --retries=5 CMD ["redis-cli", "ping"]
ENTRYPOINT ["redis-server", "--bind", "0.0.0.0", "--protected-mode", "no", "--dir", "/data", "--save", "",
            "--appendonly", "yes", "--appendfsync", "everysec"]
