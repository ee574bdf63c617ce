package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/planpr/planpr/bot"
	webhooks "github.com/planpr/planpr/bot/webhook"
)

const jobsUsage = `Usage: planpr jobs

Lists the queue's failed jobs, newest first: those that ran out of attempts
(discarded), were cancelled (a panic), or wait to be tried again (retryable),
with the delivery, the attempts and the last error. The queue is the one
'planpr serve' uses: PLANPR_DATABASE_URL, else the SQLite file in
PLANPR_DATA_DIR (default ./planpr-data), read beside a running serve.
`

const migrateUsage = `Usage: planpr migrate

Brings the queue's database to River's current schema, as 'planpr serve'
does at every start: for deployments that migrate before they roll out.
PLANPR_DATABASE_URL, else the SQLite file in PLANPR_DATA_DIR.
`

func storeConfig() webhooks.StoreConfig {
	return webhooks.StoreConfig{DataDir: cmp.Or(os.Getenv("PLANPR_DATA_DIR"), "planpr-data"), DatabaseURL: os.Getenv("PLANPR_DATABASE_URL"),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// runJobs is `planpr jobs`.
func runJobs(args []string, stdout io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, jobsUsage)
		return nil
	}
	if len(args) > 0 {
		return &usageError{"jobs takes no arguments; see 'planpr jobs --help'"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	jobs, err := webhooks.FailedJobs(ctx, storeConfig(), 200)
	if err != nil {
		return err
	}
	if len(jobs) == 0 {
		fmt.Fprintln(stdout, "no failed jobs")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "JOB\tSTATE\tKIND\tDELIVERY\tEVENT\tATTEMPTS\tCREATED\tLAST ERROR")
	for _, j := range jobs {
		last := strings.ReplaceAll(j.LastError, "\n", " ")
		if len(last) > 120 {
			last = last[:117] + "..."
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d/%d\t%s\t%s\n", j.ID, j.State, strings.TrimPrefix(j.Kind, "planpr_"), j.Delivery, j.Event,
			j.Attempts, j.MaxAttempts, j.CreatedAt.UTC().Format(time.RFC3339), bot.SafeLog(last))
	}
	return tw.Flush()
}

// runMigrate is `planpr migrate`.
func runMigrate(args []string, stdout io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, migrateUsage)
		return nil
	}
	if len(args) > 0 {
		return &usageError{"migrate takes no arguments; see 'planpr migrate --help'"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	applied, where, err := webhooks.Migrate(ctx, storeConfig())
	if err != nil {
		return err
	}
	if len(applied) == 0 {
		fmt.Fprintf(stdout, "the queue at %s is up to date\n", where)
		return nil
	}
	fmt.Fprintf(stdout, "the queue at %s: applied River migrations %v\n", where, applied)
	return nil
}
