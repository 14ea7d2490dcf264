# nginx for deploy/compose.yaml: Debian's nginx with deploy/nginx.conf,
# run as www-data from a read-only root (its scratch files go to /tmp).
#
#   docker build -f deploy/nginx.Dockerfile -t dropjudge-nginx .
FROM debian:trixie-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends nginx \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/*
COPY deploy/nginx.conf /etc/nginx/dropjudge.conf
# Healthy when GET /readyz through nginx answers 200: some replica is ready.
RUN printf '%s\n' '#!/bin/bash' \
      'exec 3<>/dev/tcp/127.0.0.1/8080 || exit 1' \
      'printf "GET /readyz HTTP/1.0\r\nHost: localhost\r\n\r\n" >&3' \
      'read -r -t 3 _ status _ <&3 && [ "$status" = 200 ]' >/usr/local/bin/lb-healthcheck \
 && chmod 755 /usr/local/bin/lb-healthcheck
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 CMD ["lb-healthcheck"]
USER www-data:www-data
EXPOSE 8080
STOPSIGNAL SIGQUIT
ENTRYPOINT ["nginx", "-p", "/tmp/", "-c", "/etc/nginx/dropjudge.conf", "-g", "daemon off;"]
