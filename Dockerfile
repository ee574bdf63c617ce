# The container image for `planpr serve`, the GitHub App, built from source:
#   docker build -t planpr .
#   docker run -p 8080:8080 -v planpr-data:/data planpr
# Releases build the same image from their binaries (Dockerfile.release).
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.Version=${VERSION}" -o /planpr ./cmd/planpr \
 && mkdir /data

# Static distroless: CA certificates and time zones, no shell, and the
# nonroot user (65532), which owns the data directory.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /planpr /usr/local/bin/planpr
COPY --from=build --chown=65532:65532 /data /data
ENV PLANPR_DATA_DIR=/data PLANPR_LISTEN=:8080
VOLUME /data
EXPOSE 8080
USER 65532:65532
HEALTHCHECK --interval=30s --timeout=6s --start-period=10s CMD ["/usr/local/bin/planpr", "health"]
ENTRYPOINT ["/usr/local/bin/planpr"]
CMD ["serve"]
