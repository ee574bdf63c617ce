package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/planpr/planpr/render"
	"github.com/planpr/planpr/render/tofujson"
)

type renderOptions struct {
	schemas  string
	format   string
	mode     string
	targeted bool
	maxSize  int
	title    string
	key      string
}

func runRender(args []string, stdout, stderr io.Writer) error {
	var o renderOptions
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.schemas, "schemas", "", "provider schemas from `tofu providers schema -json` (exact nested blocks and types)")
	fs.StringVar(&o.format, "format", "text", "output format: text (as `tofu show -no-color`), markdown (the pull-request comment) or json (a summary for workflows)")
	fs.StringVar(&o.key, "key", "", "markdown: the comment's key (names the root module or workspace; default: the plans' names)")
	fs.StringVar(&o.mode, "mode", "normal", "how the plan was made: normal, destroy (tofu plan -destroy) or refresh-only")
	fs.BoolVar(&o.targeted, "targeted", false, "the plan was made with -target (changes the \"No changes.\" wording)")
	fs.IntVar(&o.maxSize, "max-size", 65536, "markdown: the largest comment in characters; longer ones are shortened in steps")
	fs.StringVar(&o.title, "title", "", "markdown: the comment's title (default planpr)")
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: planpr render [flags] PLAN...

Prints each plan (the output of `+"`tofu show -json PLANFILE`"+`) as `+"`tofu show -no-color`"+`
prints it. With --schemas the text is byte-identical; without, nested blocks and types
are inferred and the first line says so. A PLAN may be NAME=PATH to label it.

Flags:
`)
		fs.PrintDefaults()
	}
	inputs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(inputs) == 0 {
		return &usageError{"render needs at least one plan JSON file (from `tofu show -json PLANFILE`)"}
	}
	mode := render.Mode(o.mode)
	switch mode {
	case render.ModeNormal, render.ModeDestroy, render.ModeRefreshOnly:
	default:
		return &usageError{fmt.Sprintf("--mode %q: want normal, destroy or refresh-only", o.mode)}
	}
	switch o.format {
	case "text", "markdown", "json":
	default:
		return &usageError{fmt.Sprintf("--format %q: want text, markdown or json", o.format)}
	}
	popts := render.PlanOptions{Mode: mode, Targeted: o.targeted}
	if o.schemas != "" {
		s, err := tofujson.ReadSchemasFile(o.schemas)
		if err != nil {
			return err
		}
		popts.Schemas, popts.SchemasFile = s, o.schemas
	}
	// Render everything before printing anything: a bad input must not
	// leave half an output behind.
	var out bytes.Buffer
	if o.format != "text" {
		var plans []render.CommentPlan
		var names []string
		for _, in := range inputs {
			name, path := label(in)
			if name == path {
				name = ""
			}
			plans = append(plans, render.CommentPlan{Name: name, Path: path})
			names = append(names, in)
		}
		if o.format == "json" {
			if err := render.Summary(&out, plans, popts); err != nil {
				return err
			}
		} else {
			key := o.key
			if key == "" {
				key = strings.Join(names, ",")
			}
			_, err := render.Comment(&out, plans, render.CommentOptions{PlanOptions: popts, Key: key, Title: o.title, MaxSize: o.maxSize, Version: Version})
			if err != nil {
				return err
			}
		}
		_, err = stdout.Write(out.Bytes())
		return err
	}
	for _, in := range inputs {
		name, path := label(in)
		if len(inputs) > 1 {
			fmt.Fprintf(&out, "### %s\n", name)
		}
		if err := render.PlanText(&out, path, popts); err != nil {
			return err
		}
	}
	_, err = stdout.Write(out.Bytes())
	return err
}

// label splits a NAME=PATH argument; a plain path is named by itself.
func label(arg string) (name, path string) {
	if i := strings.IndexByte(arg, '='); i > 0 && !strings.ContainsAny(arg[:i], `/\`) {
		return arg[:i], arg[i+1:]
	}
	return arg, arg
}
