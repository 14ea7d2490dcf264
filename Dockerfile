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
# Build stage: Debian's compiler and -dev packages, then `make`.
FROM debian:bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      build-essential pkg-config libmicrohttpd-dev libjansson-dev libarchive-dev zlib1g-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Makefile openapi.yaml ./
COPY include include
COPY src src
# The profile-guided build runs the program once on a few requests (Makefile: PGO).
COPY scripts/pgo-train.sh scripts/
# jansson and zlib are linked in from the -dev packages' static archives.
RUN make -j"$(nproc)" && build/dropjudge --version && ! ldd build/dropjudge | grep -q libjansson

# Runtime stage: only the runtime libraries the program opens, and the binary.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd12 libarchive13 \
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
