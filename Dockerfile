# Build a static planpr and ship it alone: the Action runs `planpr action`.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o /planpr ./cmd/planpr

# Root, as GitHub requires of Docker actions: the runner mounts its
# workspace and /github/file_commands owned by its own user, which no other
# user of the image may write.
FROM gcr.io/distroless/static-debian12
COPY --from=build /planpr /usr/local/bin/planpr
ENTRYPOINT ["/usr/local/bin/planpr"]
