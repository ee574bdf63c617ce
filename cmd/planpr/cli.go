package main

import (
	"context"
	"github.com/planpr/planpr/render/tofujson"
	"os"

	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/planpr/planpr/bot"
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
  planpr render   [--schemas FILE] [--format text|markdown|json] [--mode normal|destroy|refresh-only]
                  [--targeted] [--key K] [--title T] [--max-size N] INPUT...
  planpr lockdiff [--format text|markdown|json] [--config DIR] BEFORE AFTER...
  planpr version

Commands:
  render    print plans (` + "`tofu show -json PLANFILE`" + `) and UI streams (` + "`tofu plan|apply|test -json`" + `)
            as text, as the pull-request comment, or as a JSON summary
  lockdiff  explain the changes between two .terraform.lock.hcl files
  dry-run   print the comment planpr would post for this checkout, with no token (start here)
  action    post and keep the pull-request comment from a workflow step (see action.yml)
  serve     run the GitHub App: review lock files on every PR, comment plans from artifacts
  version   print planpr's version

Run 'planpr COMMAND --help' for a command's flags.
`

// usageError is a mistake in how planpr was called: exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	var err error
	switch args[0] {
	case "render":
		err = runRender(args[1:], stdout, stderr)
	case "lockdiff":
		err = runLockdiff(args[1:], stdout, stderr)
	case "dry-run":
		err = runDryRun(args[1:], stdout, stderr)
	case "serve":
		err = runServe(args[1:], stderr)
	case "action":
		err = bot.RunAction(context.Background(), bot.ActionEnv{Getenv: os.Getenv, Stdout: stdout, Version: Version})
	case "version", "--version":
		fmt.Fprintf(stdout, "planpr %s\n", Version)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		err = &usageError{fmt.Sprintf("unknown command %q", args[0])}
	}
	return report(err, stderr)
}

func report(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "planpr: %s\nRun 'planpr --help' for usage.\n", bot.SafeLog(ue.msg))
		return exitUsage
	}
	// Messages quote file names, plan values and lock-file contents: no
	// line of them may read as a workflow command in a CI log.
	fmt.Fprintf(stderr, "planpr: %s\n", bot.SafeLog(strings.TrimSpace(inUsersWords(err).Error())))
	return exitError
}

// inUsersWords says a bad input's error in the words of the tool that
// wrote the input, when the input tells: `terraform show -json` to a
// Terraform user.
func inUsersWords(err error) error {
	var ie *tofujson.InputError
	if !errors.As(err, &ie) {
		return err
	}
	if f := tofujson.DetectFlavor(ie.File); f.Terraform() {
		said := *ie
		said.Msg = f.Say(ie.Msg)
		return &said
	}
	return err
}

// parseFlags parses flags wherever they appear among the positional
// arguments (`render plan.json --format text` works too).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &usageError{err.Error()}
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
