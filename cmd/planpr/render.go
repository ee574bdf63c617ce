package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	txt "github.com/planpr/planpr/render/text"

	"github.com/planpr/planpr/flavor"
	"github.com/planpr/planpr/render/inputs"
	"github.com/planpr/planpr/render/report"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/summary"
	"github.com/planpr/planpr/render/tofujson/uistream"
)

type renderOptions struct {
	schemas  string
	config   string
	format   string
	mode     string
	targeted bool
	maxSize  int
	title    string
	key      string
	flavor   string
}

func runRender(args []string, stdout, stderr io.Writer) (err error) {
	var o renderOptions
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.schemas, "schemas", "", "provider schemas `FILE` (from tofu providers schema -json: exact nested blocks and types)")
	fs.StringVar(&o.config, "config", "", "the configuration `DIR` scanners' findings (SARIF inputs) are about (default: each plan's own directory, when it holds .tf files)")
	fs.StringVar(&o.format, "format", "text", "output `FORMAT`: text (as tofu show -no-color), markdown (the pull-request comment) or json (a summary for workflows)")
	fs.StringVar(&o.key, "key", "", "markdown: the comment's `KEY` (names the root module or workspace; default: the plans' names)")
	fs.StringVar(&o.mode, "mode", "normal", "how the plan was made, `MODE`: normal, destroy (tofu plan -destroy) or refresh-only")
	fs.BoolVar(&o.targeted, "targeted", false, "the plan was made with -target (changes the \"No changes.\" wording)")
	fs.IntVar(&o.maxSize, "max-size", 65536, "markdown: the largest comment, `N` characters (at least 1000); longer ones are shortened in steps")
	fs.StringVar(&o.title, "title", "", "markdown: the comment's `TITLE` (default planpr)")
	fs.StringVar(&o.flavor, "flavor", "auto", flavorUsage)
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: planpr render [flags] INPUT...

Each INPUT is a plan JSON (`+"`tofu show -json PLANFILE`"+`) or a UI stream
(`+"`tofu plan|apply|test -json`"+`, one message a line), optionally NAME=PATH. Inputs with
the same NAME (or directory) are one root module. --format text prints plans as
`+"`tofu show -no-color`"+` does (byte-identical with --schemas; without, nested blocks and
types are inferred and the first line says so); markdown prints the pull-request comment;
json a summary for workflows.

Flags:
`)
		fs.PrintDefaults()
	}
	args, err = parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return &usageError{"render needs at least one plan JSON file (from `tofu show -json PLANFILE`)"}
	}
	mode, err := review.ParseMode(o.mode)
	if err != nil {
		return &usageError{"--" + err.Error()}
	}
	switch o.format {
	case "text", "markdown", "json":
	default:
		return &usageError{fmt.Sprintf("--format %q: want text, markdown or json", o.format)}
	}
	if o.maxSize < minCommentSize {
		return &usageError{fmt.Sprintf("--max-size %d: at least %d, so that the title, the counts and the first warnings fit whole", o.maxSize, minCommentSize)}
	}
	fl, err := flavor.Parse(o.flavor)
	if err != nil {
		return &usageError{"--" + err.Error()}
	}
	// Each input is opened once for the whole render, however many passes
	// read it.
	set := inputs.NewSet()
	defer set.Close()
	popts := review.PlanOptions{Mode: mode, Targeted: o.targeted, Flavor: fl, Files: set.Open()}
	defer func() { err = inUsersWords(set.Open(), err) }() // while the inputs are open: their flavour is known
	if o.schemas != "" {
		s, err := set.Open().ReadSchemas(o.schemas)
		if err != nil {
			return err
		}
		popts.Schemas, popts.SchemasFile = s, o.schemas
	}
	// Render everything before printing anything: a bad input must not
	// leave half an output behind.
	var out bytes.Buffer
	if err := set.Add(inputPaths(args)); err != nil {
		return err
	}
	if states := set.Paths(inputs.State); len(states) > 0 {
		return renderStates(states, len(args), o, popts, stdout)
	}
	args, kinds, reports := apart(args, set.Files, inputs.Kind.IsReport)
	if len(reports) > 0 && o.format == "text" {
		return &usageError{reports[0].Path + " is a scanner's, Infracost's or a policy engine's report: --format text prints the plan as the tool does; reports are shown with --format markdown or json"}
	}
	plans := inputs.Roots(set.Open(), entries(args, kinds), inputs.Naming{}) // by label, else directory
	if err := inputs.WithReports(plans, reports, configOf(o.config)); err != nil {
		return err
	}
	switch o.format {
	case "json":
		err = summary.Write(&out, plans, popts)
	case "markdown":
		key := o.key
		if key == "" {
			var names []string
			for _, p := range plans {
				names = append(names, p.Name)
			}
			key = strings.Join(names, ",")
		}
		var rep *report.Report
		rep, err = report.Build(context.Background(), report.Request{Plans: plans, Plan: popts, Marker: report.Marker{Key: key},
			Title: o.title, MaxSize: o.maxSize, Version: Version, NoFingerprint: true})
		if err == nil {
			out.WriteString(rep.Comment)
		}
	default:
		// Check every input first, then stream: nothing is printed for a
		// bad input, and memory stays one resource deep.
		var prepared []*txt.PreparedPlan
		closeAll := func() {
			for _, pt := range prepared {
				if pt != nil {
					pt.Close()
				}
			}
			prepared = nil
		}
		defer closeAll()
		cleanup, err := review.Splitting(popts.Files, plans, func(split []inputs.Root) error {
			closeAll()
			plans = split
			return prepareText(plans, popts, &prepared)
		})
		defer cleanup()
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(stdout, 1<<16)
		failed := 0 // streams whose run failed: all printed, then exit 1
		for i, p := range plans {
			if len(plans) > 1 {
				fmt.Fprintf(w, "### %s\n", p.Name)
			}
			if prepared[i] != nil {
				if err = prepared[i].Write(w); err != nil {
					break
				}
			}
			for _, st := range p.Streams {
				if err = txt.StreamText(w, popts.Files, st); errors.Is(err, txt.ErrStreamFailed) {
					failed, err = failed+1, nil
				} else if err != nil {
					break
				}
			}
		}
		if err == nil {
			err = w.Flush()
		}
		if err == nil && failed > 0 {
			err = &exitStatus{1, fmt.Sprintf("%d of the streams record a failed run (their errors are above)", failed)}
		}
		return err
	}
	if err != nil {
		return err
	}
	_, err = stdout.Write(out.Bytes())
	return err
}

// prepareText checks each plan and stream, appending what each plan needs
// to print (nil for a module without a plan) to prepared.
func prepareText(plans []inputs.Root, popts review.PlanOptions, prepared *[]*txt.PreparedPlan) error {
	for _, p := range plans {
		if p.Path == "" {
			*prepared = append(*prepared, nil)
			continue
		}
		pt, err := txt.PreparePlanText(p.Path, popts)
		if err != nil {
			return err
		}
		*prepared = append(*prepared, pt)
	}
	for _, p := range plans {
		for _, st := range p.Streams {
			if _, err := uistream.ReadStreamFile(popts.Files, st, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// label splits a NAME=PATH argument; a plain path is named by itself. A
// name may hold slashes (envs/prod=plan.json, or one name per plan of a
// terragrunt file: envs/a,envs/b=plans.json) when the argument is not
// itself a file.
func label(arg string) (name, path string) {
	i := strings.IndexByte(arg, '=')
	if i > 0 && !strings.ContainsAny(arg[:i], `/\`) {
		return arg[:i], arg[i+1:]
	}
	if i > 0 {
		if _, err := os.Stat(arg); err != nil {
			if _, err := os.Stat(arg[i+1:]); err == nil {
				return arg[:i], arg[i+1:]
			}
		}
	}
	return arg, arg
}

// inputPaths are the files of the inputs, without their labels.
func inputPaths(args []string) []string {
	paths := make([]string, len(args))
	for i, in := range args {
		_, paths[i] = label(in)
	}
	return paths
}

// renderStates renders states: as `tofu show` prints them, or as an
// inventory for a comment.
func renderStates(states []string, count int, o renderOptions, popts review.PlanOptions, stdout io.Writer) error {
	if len(states) != count {
		return &usageError{"a state (`tofu show -json STATEFILE`) is rendered on its own: pass it without plans or streams"}
	}
	var out bytes.Buffer
	switch o.format {
	case "markdown":
		if len(states) > 1 {
			return &usageError{"--format markdown renders one state at a time"}
		}
		key := cmp.Or(o.key, "state")
		rep, err := report.BuildState(states[0], report.Request{Plan: popts, Marker: report.Marker{Key: key}, Title: o.title, MaxSize: o.maxSize, Version: Version})
		if err != nil {
			return err
		}
		out.WriteString(rep.Comment)
	case "json":
		return &usageError{"--format json summarises plans; for a state use text or markdown"}
	default:
		// Check them all before printing: StateText reads each fully
		// before writing.
		for _, s := range states {
			if len(states) > 1 {
				fmt.Fprintf(&out, "### %s\n", s)
			}
			if err := txt.StateText(&out, s, popts); err != nil {
				return err
			}
		}
	}
	_, err := stdout.Write(out.Bytes())
	return err
}

// flavorUsage explains --flavor wherever it is taken.
const flavorUsage = "whose words and rules to follow, `FLAVOR`: terraform, opentofu, or auto (each plan tells: its providers' registry, members only Terraform writes, a 0.x format; when nothing tells, OpenTofu's words, said in the footer)"

// minCommentSize is the smallest --max-size: below it even the summary
// level would cut the title.
const minCommentSize = 1000
