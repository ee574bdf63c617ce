package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/planpr/planpr/bot/actionlog"
	"github.com/planpr/planpr/render/fingerprint"
	"github.com/planpr/planpr/render/inputs"
	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/tofujson"
)

// exitStatus ends a command with a code of its own (compare-plans: 1 when
// the plans differ, 2 on bad input), its message said when there is one.
type exitStatus struct {
	code int
	msg  string
}

func (e *exitStatus) Error() string { return e.msg }

// reviewSecretEnv holds the review's secret (the Action's review-secret),
// for compare-plans to count sensitive values by.
const reviewSecretEnv = "PLANPR_REVIEW_SECRET"

func runComparePlans(args []string, stdout, stderr io.Writer) error {
	var format string
	fl := flag.NewFlagSet("compare-plans", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.StringVar(&format, "format", "text", "output `FORMAT`: text, markdown or json")
	fl.Usage = func() {
		fmt.Fprint(stderr, `Usage: planpr compare-plans [--format text|markdown|json] REVIEWED CURRENT

Says whether two plans (`+"`tofu show -json PLANFILE`"+`, or Terraform's) would do the same: change by
change, what CURRENT would do that REVIEWED would not ("aws_instance.web: reviewed as update,
now replace because `+"`ami`"+` forces replacement"; "aws_s3_bucket.logs: new since review"). Plans
compare by what they do — their fingerprints (printed) — not by their bytes: the timestamp, the
tool and its version, the prior state and the order of resources do not count; sensitive values
count only with the review's secret in PLANPR_REVIEW_SECRET (by their HMAC) and are never shown.

Exit status: 0 when the plans would do the same, 1 when they differ, 2 on bad input.

Flags:
`)
		fl.PrintDefaults()
	}
	files, err := parseFlags(fl, args)
	if err != nil {
		return err
	}
	if len(files) != 2 {
		return &usageError{"compare-plans needs two plans: REVIEWED CURRENT"}
	}
	switch format {
	case "text", "markdown", "json":
	default:
		return &usageError{fmt.Sprintf("--format %q: want text, markdown or json", format)}
	}
	var plans [2]*fingerprint.Plan
	// With the review's secret, sensitive values count too (by their
	// HMAC; never shown).
	opts := fingerprint.Options{Key: []byte(os.Getenv(reviewSecretEnv))}
	open := tofujson.NewFiles() // each plan opened once
	defer open.Close()
	for i, f := range files {
		// What the file is, said in compare-plans' words: it compares two
		// plans, and nothing else.
		switch kind, _ := inputs.Classify(open, f); kind {
		case inputs.Stream:
			return &exitStatus{2, f + ": a UI stream (`tofu plan -json`), not a plan: compare-plans compares two plan JSON files, as `tofu show -json PLANFILE` writes them; a stream goes to render, dry-run or the Action's ui-stream"}
		case inputs.Schemas:
			return &exitStatus{2, f + ": provider schemas (`tofu providers schema -json`), not a plan: compare-plans compares two plan JSON files, as `tofu show -json PLANFILE` writes them; it needs no schemas"}
		case inputs.State:
			return &exitStatus{2, f + ": a state (`tofu show -json`), not a plan: compare-plans compares two plan JSON files, as `tofu show -json PLANFILE` writes them"}
		}
		p, err := fingerprint.Read(open, f, opts)
		if err != nil {
			return &exitStatus{2, inUsersWords(open, err).Error()}
		}
		plans[i] = p
	}
	reviewed, current := plans[0].Sum(), plans[1].Sum()
	diffs := fingerprint.Compare(plans[0], plans[1])
	if reviewed != current && len(diffs) == 0 { // Compare sees every difference; if ever not, the sums decide
		diffs = []fingerprint.Difference{{Kind: "sum", Message: "the fingerprints differ"}}
	}
	var out bytes.Buffer
	switch format {
	case "json":
		enc := json.NewEncoder(&out)
		enc.SetIndent("", "  ")
		if diffs == nil {
			diffs = []fingerprint.Difference{}
		}
		enc.Encode(map[string]any{"same": len(diffs) == 0, "reviewed": reviewed, "current": current, "differences": diffs})
	case "markdown":
		if len(diffs) == 0 {
			fmt.Fprintf(&out, "✅ The plans would do the same (fingerprint `%s`).\n", fingerprint.Short(current))
			break
		}
		fmt.Fprintf(&out, "❌ **The plan differs from the one reviewed** (reviewed `%s`, now `%s`): %s\n\n", fingerprint.Short(reviewed), fingerprint.Short(current), count(len(diffs)))
		for _, d := range diffs {
			fmt.Fprintf(&out, "- %s\n", md.Message(d.Message))
		}
	default:
		if len(diffs) == 0 {
			fmt.Fprintf(&out, "The plans would do the same (fingerprint %s).\n", current)
			break
		}
		fmt.Fprintf(&out, "The plan differs from the one reviewed (reviewed %s, now %s): %s\n", fingerprint.Short(reviewed), fingerprint.Short(current), count(len(diffs)))
		for _, d := range diffs {
			fmt.Fprintf(&out, "  %s\n", textLine(d.Message))
		}
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		return err
	}
	if len(diffs) > 0 {
		return &exitStatus{1, ""}
	}
	return nil
}

// textLine is a message as one line of a terminal or a workflow log: its
// code spans plain, line breaks shown as \n, invisible characters as
// \uXXXX, nothing a runner would take for a workflow command.
func textLine(msg string) string {
	msg = strings.NewReplacer("`", "", "\n", `\n`, "\r", `\r`).Replace(msg)
	return actionlog.SafeLog(msg)
}

func count(n int) string {
	if n == 1 {
		return "1 difference"
	}
	return fmt.Sprintf("%d differences", n)
}
