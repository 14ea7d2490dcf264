# dropjudge: the HTTP judging service in a small image.
#
#   docker build -t dropjudge .
#   docker run --rm --read-only --cap-drop=ALL --security-opt=no-new-privileges \
#     -p 8080:8080 dropjudge
#
# The service writes no file and needs no capability: it runs as the
# non-root user dropjudge with a read-only root filesystem (make
# test-container checks both, and that it is healthy and stops cleanly).
#
# Build stage: Debian 13's compiler and -dev packages, then `make`.
FROM debian:trixie-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      build-essential pkg-config libmicrohttpd-dev libjansson-dev libgnutls28-dev \
      libarchive-dev zlib1g-dev libhpdf-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Makefile openapi.yaml ./
COPY include include
COPY src src
RUN make -j"$(nproc)" && build/dropjudge --version

# Runtime stage: the runtime libraries the program links (Debian 13 names,
# after the 64-bit time_t transition), and the binary.
FROM debian:trixie-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libmicrohttpd12t64 libgnutls30t64 libjansson4 libarchive13t64 zlib1g \
      libhpdf-2.3.0 \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin dropjudge
COPY --from=build /src/build/dropjudge /usr/local/bin/dropjudge
USER dropjudge:dropjudge
ENV HOST=0.0.0.0 PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=2s --retries=3 \
  CMD ["dropjudge", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["dropjudge"]
CMD ["serve"]
