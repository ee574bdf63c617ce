package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"strings"
	"time"
)

const healthUsage = `Usage: planpr health [URL]

Asks a running 'planpr serve' whether it is healthy: GET URL (default
http://127.0.0.1:PORT/healthz, PORT from PLANPR_LISTEN, else 8080) must
answer 200 within 5 seconds. Exits 0 when it does, 1 otherwise; for a
container's HEALTHCHECK, which has no shell or curl to do it.
`

// runHealth is `planpr health`.
func runHealth(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, healthUsage)
		return nil
	}
	if len(args) > 1 {
		return &usageError{"health takes at most one argument, the URL of /healthz"}
	}
	url := healthURL(os.Getenv("PLANPR_LISTEN"))
	if len(args) == 1 {
		url = args[0]
		// A base URL (http://host:8080) means its /healthz.
		if u, err := neturl.Parse(url); err == nil && (u.Path == "" || u.Path == "/") {
			u.Path = "/healthz"
			url = u.String()
		}
	}
	shown := redactedURL(url)
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		// The client's error quotes the URL; say it without its password.
		var ue *neturl.Error
		if errors.As(err, &ue) {
			return fmt.Errorf("not healthy: %s: %w", shown, ue.Err)
		}
		return fmt.Errorf("not healthy: %s: %w", shown, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("not healthy: %s answered %d %s", shown, resp.StatusCode, strings.TrimSpace(string(body)))
	}
	fmt.Fprintf(stdout, "healthy: %s\n", shown)
	return nil
}

// redactedURL is a URL to print: its password, if any, replaced by
// "xxxxx"; text that is no URL is said to be one, not echoed.
func redactedURL(raw string) string {
	u, err := neturl.Parse(raw)
	if err != nil {
		return "(a URL that cannot be parsed)"
	}
	return u.Redacted()
}

// healthURL is /healthz on loopback at the port serve listens on.
func healthURL(listen string) string {
	port := "8080"
	if _, p, err := net.SplitHostPort(listen); err == nil && p != "" {
		port = p
	}
	return "http://127.0.0.1:" + port + "/healthz"
}
