package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/planpr/planpr/bot"
	"github.com/planpr/planpr/bot/action"
	"github.com/planpr/planpr/render/tofujson"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// Version is set at build time with -ldflags "-X main.Version=…".
var Version = "0.1.0-dev"

const usage = `planpr reviews OpenTofu/Terraform plans and lock files for pull requests.

Usage:
  planpr dry-run  [--base REF] [--schemas FILE] [--html FILE] [--flavor F] [PLAN_OR_STREAM...]
  planpr render   [--schemas FILE] [--format text|markdown|json] [--mode normal|destroy|refresh-only]
                  [--targeted] [--flavor F] [--key K] [--title T] [--max-size N] INPUT...
  planpr lockdiff [--format text|markdown|json] [--config DIR] [--flavor F] BEFORE AFTER...
  planpr compare-plans [--format text|markdown|json] REVIEWED CURRENT
  planpr action                    (in a workflow step: INPUT_* and GITHUB_* variables)
  planpr serve                     (the GitHub App: PLANPR_* variables)
  planpr health [URL]              (is a running serve healthy? for HEALTHCHECK)
  planpr jobs | migrate            (the App's queue: failed jobs; River's migrations)
  planpr help [COMMAND]
  planpr version

Commands:
  render    print plans (` + "`tofu show -json PLANFILE`" + `) and UI streams (` + "`tofu plan|apply|test -json`" + `)
            as text, as the pull-request comment, or as a JSON summary
  lockdiff  explain the changes between two .terraform.lock.hcl files
  compare-plans  say whether two plans would do the same, change by change (exit 1 if not)
  dry-run   print the comment planpr would post for this checkout, with no token (start here)
  action    post and keep the pull-request comment from a workflow step (see action.yml)
  serve     run the GitHub App: review lock files on every PR, comment plans from artifacts
  health    ask a running serve for /healthz: exit 0 when healthy
  jobs      list the App's failed jobs (deliveries that ran out of attempts)
  migrate   migrate the App's queue database to River's schema
  version   print planpr's version

Run 'planpr help COMMAND' (or 'planpr COMMAND --help') for a command's flags.
`

// actionUsage is `planpr action --help`: the Action is configured by its
// workflow step, not by flags.
const actionUsage = `Usage: planpr action

Run as the planpr GitHub Action's step (see action.yml): it renders the plans, UI streams and
lock-file changes of the pull request and keeps one comment per key on it. It takes no flags;
its inputs come from the workflow as INPUT_* variables (INPUT_PLAN, INPUT_UI-STREAM (INPUT_UI-LOG, its old name),
INPUT_SCHEMAS, INPUT_FINDINGS, INPUT_LOCK-FILES, INPUT_KEY, INPUT_TITLE, INPUT_MODE, INPUT_FLAVOR,
INPUT_COMMENT-MODE, INPUT_JOB-SUMMARY, INPUT_LABELS, INPUT_VERIFY, INPUT_REGISTRY,
INPUT_VERIFY-HOSTS, INPUT_PLATFORMS, INPUT_CHECK, INPUT_FAIL-ON, INPUT_COMMENT-PER,
INPUT_ROOTS, INPUT_PACK, INPUT_REVIEWED, INPUT_REVIEWED-PLAN, INPUT_REVIEW-SECRET,
INPUT_COMMENT-AUTHOR,
INPUT_GITHUB-TOKEN) and the run's
GITHUB_* variables. To see the comment without a workflow, run 'planpr dry-run'.
`

// usageError is a mistake in how planpr was called: exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	// Help asked for is the output, on stdout (`planpr render --help |
	// less`); help after a mistake goes to stderr with the mistake.
	if slices.ContainsFunc(args[1:], isHelp) {
		stderr = stdout
	}
	var err error
	switch args[0] {
	case "render":
		err = runRender(args[1:], stdout, stderr)
	case "lockdiff":
		err = runLockdiff(args[1:], stdout, stderr)
	case "compare-plans":
		err = runComparePlans(args[1:], stdout, stderr)
	case "dry-run":
		err = runDryRun(args[1:], stdout, stderr)
	case "serve":
		err = runServe(args[1:], stderr)
	case "health":
		err = runHealth(args[1:], stdout, stderr)
	case "jobs":
		err = runJobs(args[1:], stdout)
	case "migrate":
		err = runMigrate(args[1:], stdout)
	case "action":
		if len(args) > 1 && isHelp(args[1]) {
			fmt.Fprint(stdout, actionUsage)
			return exitOK
		}
		if len(args) > 1 {
			err = &usageError{"action takes no arguments: its inputs are the workflow step's (INPUT_* variables); see 'planpr action --help'"}
			break
		}
		err = action.Run(context.Background(), action.Env{Getenv: os.Getenv, Stdout: stdout, Version: Version})
	case "version", "--version":
		fmt.Fprintf(stdout, "planpr %s\n", Version)
	case "help", "-h", "--help":
		if len(args) > 1 && args[0] == "help" {
			return run([]string{args[1], "--help"}, stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
	default:
		msg := fmt.Sprintf("unknown command %q", args[0])
		if c := nearest(args[0], commands); c != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", c)
		}
		err = &usageError{msg}
	}
	// A mistake in a command's arguments points at that command's help.
	var ue *usageError
	if errors.As(err, &ue) && slices.Contains(commands, args[0]) && !strings.Contains(ue.msg, "--help") {
		err = &usageError{ue.msg + "; see 'planpr " + args[0] + " --help'"}
	}
	return exitCode(err, stderr)
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	var es *exitStatus
	if errors.As(err, &es) {
		if es.msg != "" {
			fmt.Fprintf(stderr, "planpr: %s\n", bot.SafeLog(es.msg))
		}
		return es.code
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "planpr: %s\n", bot.SafeLog(ue.msg))
		if !strings.Contains(ue.msg, "--help'") {
			fmt.Fprintln(stderr, "Run 'planpr --help' for usage.")
		}
		return exitUsage
	}
	// Messages quote file names, plan values and lock-file contents: no
	// line of them may read as a workflow command in a CI log.
	fmt.Fprintf(stderr, "planpr: %s\n", bot.SafeLog(strings.TrimSpace(err.Error())))
	return exitError
}

// inUsersWords says a bad input's error in the words of the tool that
// wrote the input, when the input tells: `terraform show -json` to a
// Terraform user. The commands that read inputs call it while they hold
// them, so the flavour decided for the run is the one asked.
func inUsersWords(files *tofujson.Files, err error) error {
	var ie *tofujson.InputError
	if !errors.As(err, &ie) {
		return err
	}
	if f := files.DetectFlavor(ie.File); f.Terraform() {
		said := *ie
		said.Msg = f.Say(ie.Msg)
		return &said
	}
	return err
}

// parseFlags parses flags wherever they appear among the positional
// arguments (`render plan.json --format text` works too).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	// The flag package prints a mistake and the whole usage; planpr says
	// the mistake once, with a suggestion and where the usage is, and
	// prints the usage only when it is asked for.
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defer func() { fs.SetOutput(out); fs.Usage = usage }()
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(out)
				usage()
				return nil, err
			}
			return nil, &usageError{flagMessage(fs, err) + didYouMean(fs, err) + "; see 'planpr " + fs.Name() + " --help'"}
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// commands are planpr's commands, for suggestions.
var commands = []string{"render", "lockdiff", "compare-plans", "dry-run", "serve", "health", "jobs", "migrate", "action", "version", "help"}

// nearest is the word of words at most two edits from w, "" when none is.
func nearest(w string, words []string) string {
	best, bestDist := "", 3
	for _, c := range words {
		if d := editDistance(w, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// didYouMean suggests the flag nearest to an unknown one ("--fromat":
// did you mean --format?), or "".
func didYouMean(fs *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	best := nearest(strings.TrimPrefix(name, "-"), names)
	if best == "" {
		return ""
	}
	return " (did you mean --" + best + "?)"
}

// invalidValue is the flag package's wrapping of a value a flag refused.
var invalidValue = regexp.MustCompile(`^invalid (?:boolean )?value "([^"]*)" for (?:flag )?-([\w-]+): `)

// flagMessage says a flag's refused value as planpr says it: the flag's
// own message when it names the flag, else the flag, the value and why.
func flagMessage(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	m := invalidValue.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	rest := msg[len(m[0]):]
	if strings.Contains(rest, m[2]) {
		return rest
	}
	if f := fs.Lookup(m[2]); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			switch g.Get().(type) {
			case int, int64, uint, uint64:
				rest = "want a whole number"
			case bool:
				rest = "want true or false"
			case time.Duration:
				rest = "want a duration, such as 30s or 5m"
			case float64:
				rest = "want a number"
			}
		}
	}
	return fmt.Sprintf("--%s %q: %s", m[2], m[1], rest)
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
