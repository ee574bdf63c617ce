package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/planpr/planpr/bot"
)

// runServe is `planpr serve`: the GitHub App webhook server.
func runServe(args []string, stderr io.Writer) error {
	if len(args) > 0 {
		if args[0] == "--help" || args[0] == "-h" {
			fmt.Fprint(stderr, `Usage: planpr serve

Runs the GitHub App webhook server. Configuration comes from the environment:
  PLANPR_APP_ID           the App's id
  PLANPR_PRIVATE_KEY      the App's private key: PEM text, or the path of a PEM file
  PLANPR_WEBHOOK_SECRET   the webhook secret deliveries are signed with
  PLANPR_LISTEN           address to listen on (default :8080)
  PLANPR_WORKERS          deliveries processed at once (default 4)
  PLANPR_QUEUE            deliveries waiting before 503 (default 100)
  GITHUB_API_URL          https://api.github.com, or https://HOST/api/v3 (GitHub Enterprise)
Serves POST /webhook, GET /healthz and GET /metrics; logs JSON to stderr.
`)
			return nil
		}
		return &usageError{"serve takes no arguments; it is configured by PLANPR_* variables (see planpr serve --help)"}
	}
	log := slog.New(slog.NewJSONHandler(stderr, nil))
	if os.Getenv("PLANPR_APP_ID") == "" {
		return errors.New("PLANPR_APP_ID is not set: the App's numeric id, from its settings page")
	}
	appID, err := strconv.ParseInt(os.Getenv("PLANPR_APP_ID"), 10, 64)
	if err != nil {
		return errors.New("PLANPR_APP_ID must be the App's numeric id")
	}
	key := os.Getenv("PLANPR_PRIVATE_KEY")
	if key == "" {
		return errors.New("PLANPR_PRIVATE_KEY is not set: the App's private key, as PEM text or the path of the .pem file GitHub let you download")
	}
	if os.Getenv("PLANPR_WEBHOOK_SECRET") == "" {
		return errors.New("PLANPR_WEBHOOK_SECRET is not set: the App's webhook secret, which every delivery is checked against")
	}
	if key != "" && !strings.Contains(key, "-----BEGIN") {
		b, err := os.ReadFile(key)
		if err != nil {
			return fmt.Errorf("PLANPR_PRIVATE_KEY: not PEM text, and not a readable file: %v", err)
		}
		key = string(b)
	}
	workers, _ := strconv.Atoi(os.Getenv("PLANPR_WORKERS"))
	queue, _ := strconv.Atoi(os.Getenv("PLANPR_QUEUE"))
	srv, err := bot.NewServer(bot.ServerConfig{
		AppID: appID, PrivateKey: []byte(key), WebhookSecret: []byte(os.Getenv("PLANPR_WEBHOOK_SECRET")),
		APIURL: os.Getenv("GITHUB_API_URL"), GraphQLURL: os.Getenv("GITHUB_GRAPHQL_URL"),
		Workers: workers, QueueSize: queue, Logger: log, Version: Version,
	})
	if err != nil {
		return err
	}
	addr := os.Getenv("PLANPR_LISTEN")
	if addr == "" {
		addr = ":8080"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	log.Info("planpr serve listening", "addr", ln.Addr().String(), "version", Version)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return srv.Run(ctx, ln, 5*time.Second, 30*time.Second)
}
