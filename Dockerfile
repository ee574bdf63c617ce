# The container image for `planpr serve`, the GitHub App, built from source:
#   docker build -t planpr .
#   docker run -p 8080:8080 -v planpr-data:/data planpr
# Releases build the same image from their binaries (Dockerfile.release).
# Base images by digest (their tag beside it): a tag can be moved, a digest
# cannot. Refresh with `docker buildx imagetools inspect IMAGE:TAG`.
FROM golang:1.26@sha256:595c7847cff97c9a9e76f015083c481d26078f961c9c8dca3923132f51fe12f1 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.Version=${VERSION}" -o /planpr ./cmd/planpr \
 && mkdir /data

# Static distroless: CA certificates and time zones, no shell, and the
# nonroot user (65532), which owns the data directory.
FROM gcr.io/distroless/static-debian12:nonroot@sha256:d093aa3e30dbadd3efe1310db061a14da60299baff8450a17fe0ccc514a16639
COPY --from=build /planpr /usr/local/bin/planpr
COPY --from=build --chown=65532:65532 /data /data
ENV PLANPR_DATA_DIR=/data PLANPR_LISTEN=:8080
VOLUME /data
EXPOSE 8080
USER 65532:65532
HEALTHCHECK --interval=30s --timeout=6s --start-period=10s CMD ["/usr/local/bin/planpr", "health"]
ENTRYPOINT ["/usr/local/bin/planpr"]
CMD ["serve"]
