package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/planpr/planpr/bot"
	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/flavor"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/inputs"
	"github.com/planpr/planpr/render/preview"
	"github.com/planpr/planpr/render/report"
	"github.com/planpr/planpr/render/review"
)

// dryRunOptions are `planpr dry-run`'s flags and arguments, and where
// its report goes.
type dryRunOptions struct {
	base, schemas, config, mode, htmlFile, summaryFile, key, flavorName, failOnText string
	verify                                                                          verifyFlags
	files                                                                           []string
	stdout, stderr                                                                  io.Writer
	// sink takes the report; nil: the terminal (the comment on stdout,
	// the notes on stderr, the --html and --summary files).
	sink publish.Sink
}

// runDryRun is `planpr dry-run`: the comment the Action would post, from a
// git checkout, with no token and no network.
func runDryRun(args []string, stdout, stderr io.Writer) (err error) {
	o := dryRunOptions{stdout: stdout, stderr: stderr}
	fs := flag.NewFlagSet("dry-run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.base, "base", "", "compare lock files with the merge base of `REF` (default: the remote's default branch, else main or master, whichever exists)")
	fs.StringVar(&o.schemas, "schemas", "", "provider schemas `FILE` (from tofu providers schema -json)")
	fs.StringVar(&o.config, "config", "", "the configuration `DIR` scanners' findings (SARIF inputs) are about (default: each plan's own directory, when it holds .tf files)")
	fs.StringVar(&o.mode, "mode", "normal", "how the plans were made, `MODE`: normal, destroy or refresh-only")
	fs.StringVar(&o.htmlFile, "html", "", "also write a self-contained preview page of the comment to `FILE`")
	fs.StringVar(&o.summaryFile, "summary", "", "also write the machine summary (the Action's summary output, as render --format json) to `FILE`")
	fs.StringVar(&o.key, "key", "", "the comment's `KEY` (default: the plans' names)")
	fs.StringVar(&o.flavorName, "flavor", "auto", flavorUsage)
	fs.StringVar(&o.failOnText, "fail-on", report.DefaultFailOn, "what would fail the check, as the Action's fail-on: `LIST` of errored, lock-alert, destroy, replace, drift, or none (no approval label is assumed)")
	o.verify.add(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: planpr dry-run [flags] [PLAN_OR_STREAM...]

In a git checkout, prints exactly the comment planpr would post: the lock files changed
between the merge base of --base and the working tree (each cross-checked with its root
module's configuration), and the given plans and UI streams. Needs no token and no network
(--verify asks the provider registries about new lock hashes, as the Action does).
A short report (size against GitHub's 65,536-character limit, what was shortened, how
many values were masked) goes to stderr.

Flags:
`)
		fs.PrintDefaults()
	}
	if o.files, err = parseFlags(fs, joinVerifyMode(args)); err != nil {
		return err
	}
	return dryRun(o)
}

// dryRun runs dry-run with its options.
func dryRun(o dryRunOptions) (err error) {
	base, schemas, mode, htmlFile, summaryFile, key, flavorName, failOnText := o.base, o.schemas, o.mode, o.htmlFile, o.summaryFile, o.key, o.flavorName, o.failOnText
	files, vf, stdout, stderr := o.files, o.verify, o.stdout, o.stderr
	if key != "" { // as the Action's key input is checked
		if err := bot.CheckKey(key); err != nil {
			return &usageError{"--" + err.Error()}
		}
	}
	if files, err = expandPatterns(files); err != nil {
		return err
	}
	m, err := review.ParseMode(mode)
	if err != nil {
		return &usageError{"--" + err.Error()}
	}
	fl, err := flavor.Parse(flavorName)
	if err != nil {
		return &usageError{"--" + err.Error()}
	}
	set := inputs.NewSet() // each input opened once
	defer set.Close()
	popts := review.PlanOptions{Mode: m, Flavor: fl, Files: set.Open()}
	if schemas != "" {
		if popts.Schemas, err = set.Open().ReadSchemas(schemas); err != nil {
			return err
		}
		popts.SchemasFile = schemas
	}
	top, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		return errors.New("not a git checkout: run dry-run inside the repository, or use `planpr render` and `planpr lockdiff` on files")
	}
	if base == "" {
		base = defaultBase()
	}
	mergeBase, err := git("merge-base", base, "HEAD")
	if err != nil {
		return fmt.Errorf("unknown base ref %q: name a branch, tag or commit with --base (for example --base origin/main)", base)
	}
	platforms, err := vf.platformsOf()
	if err != nil {
		return err
	}
	locks, err := changedLocks(top, mergeBase, fl, platforms)
	if err != nil {
		return err
	}
	v, err := vf.verifier()
	if err != nil {
		return err
	}
	if v != nil {
		v.Verify(context.Background(), locks)
	}
	if len(locks) == 0 && len(files) == 0 {
		return fmt.Errorf("nothing to show: no lock file changed since %s (the merge base with %s), and no plan given; pass plan JSON files (`tofu show -json tfplan > plan.json`) or UI streams (`tofu plan -json > plan.jsonl`)", shortRef(mergeBase), base)
	}
	defer func() { err = inUsersWords(set.Open(), err) }() // while the inputs are open: their flavour is known
	if err := set.Add(inputPaths(files)); err != nil {
		return err
	}
	// Schemas among the inputs (envs/prod/*.json holds schemas.json) are
	// taken as the Action takes them: each plan's beside it.
	files, kinds, schemaFiles := apart(files, set.Files, func(k inputs.Kind) bool { return k == inputs.Schemas })
	files, kinds, reports := apart(files, kinds, inputs.Kind.IsReport)
	plans := inputs.Roots(set.Open(), entries(files, kinds), inputs.Naming{Top: top}) // as the Action names them
	if err := inputs.WithReports(plans, reports, configOf(o.config)); err != nil {
		return err
	}
	var given []string
	for _, f := range schemaFiles {
		given = append(given, f.Path)
	}
	if schemas == "" {
		beside := inputs.SchemasBeside(set.Open(), bot.PlanPaths(plans), given)
		if popts.SchemasOf, err = review.ReadSchemasOf(set.Open(), beside); err != nil {
			return err
		}
		if len(beside) == 0 && len(given) > 0 { // beside no plan: the run's
			if popts.Schemas, err = set.Open().ReadSchemas(given[0]); err != nil {
				return err
			}
			popts.SchemasFile = given[0]
		}
	}
	if len(plans) > 1 { // a directory of packed roots: named by their manifests, as the Action's final job names them
		if err := bot.NameByManifests(plans); err != nil {
			return err
		}
	}
	if key == "" {
		var names []string
		for _, p := range plans {
			names = append(names, p.Name)
		}
		key = report.KeyFor(names, true, false) // as the Action's default comment-per: pull-request
	}
	failOn, err := report.ParseFailOn(failOnText)
	if err != nil {
		return &usageError{"--" + err.Error()}
	}
	headSHA, _ := git("rev-parse", "HEAD") // the commit the Action would name
	rep, err := report.Build(context.Background(), report.Request{Plans: plans, Plan: popts,
		Marker: report.Marker{Key: key, SHA: headSHA, Roots: publish.PlanRoots(plans, top)}, Title: report.Title(key),
		Version: Version, Locks: locks, FullText: "the job summary", Summary: true}) // the Action's summary output, which the sink writes to --summary
	if err != nil {
		return err
	}
	sink := o.sink
	if sink == nil {
		sink = &terminalSink{stdout: stdout, stderr: stderr, htmlFile: htmlFile, summaryFile: summaryFile, key: key,
			locks: locks, failOn: failOn, compared: fmt.Sprintf("compared with %s (merge base with %s)", shortRef(mergeBase), base)}
	}
	return sink.Publish(context.Background(), publish.Publication{Reports: []*report.Report{rep}, Outputs: []map[string]string{rep.Outputs()}})
}

// terminalSink is dry-run's sink: each report's comment on stdout, a
// short report of it on stderr (its size, key, title, labels, outputs,
// check, what was shortened and masked, the lock files compared), and
// the --html preview and --summary file when asked for.
type terminalSink struct {
	stdout, stderr        io.Writer
	htmlFile, summaryFile string
	key                   string
	locks                 []*lockdiff.FileDiff
	failOn                report.FailOn
	compared              string // what the lock files were compared with
}

func (t *terminalSink) Publish(_ context.Context, pub publish.Publication) error {
	for _, rep := range pub.Reports {
		if err := t.publish(rep); err != nil {
			return err
		}
	}
	return nil
}

func (t *terminalSink) publish(rep *report.Report) error {
	stdout, stderr, htmlFile, summaryFile, key, locks, failOn := t.stdout, t.stderr, t.htmlFile, t.summaryFile, t.key, t.locks, t.failOn
	res, out := rep.Result, bytes.NewBufferString(rep.Comment)
	if htmlFile != "" {
		var page bytes.Buffer
		if err := preview.HTML(&page, "planpr preview: "+key, out.String()); err != nil {
			return err
		}
		if err := os.WriteFile(htmlFile, page.Bytes(), 0o644); err != nil {
			return err
		}
	}
	verdict := report.Judge(res, locks, failOn, report.Approval{})
	if summaryFile != "" {
		if err := os.WriteFile(summaryFile, []byte(report.WithCheck(rep.Summary, report.CheckName(key), verdict)+"\n"), 0o644); err != nil {
			return err
		}
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		return err
	}
	notes := []string{fmt.Sprintf("planpr dry-run: %d of %d characters (%.0f%%)", res.Size, report.GitHubMaxComment, 100*float64(res.Size)/report.GitHubMaxComment),
		fmt.Sprintf("key %s, title %q, labels: %s", key, rep.Title, cmp.Or(strings.Join(rep.Labels(), ", "), "none")),
		"outputs: " + outputsLine(rep.Outputs()),
		fmt.Sprintf("check %q: %s (%s)", report.CheckName(key), verdict.Conclusion, strings.Join(verdict.Why, "; "))}
	switch res.Level {
	case report.LevelReduced:
		notes = append(notes, fmt.Sprintf("shortened: %s without a diff (a diff stands for each group of changes alike)", plural(res.Omitted, "change", "changes")))
	case report.LevelSummary:
		notes = append(notes, "shortened: every diff left out; the job summary would hold them")
	default:
		notes = append(notes, "not shortened")
	}
	notes = append(notes, plural(res.Masked, "sensitive value", "sensitive values")+" masked",
		plural(len(locks), "lock file", "lock files")+" "+t.compared)
	if htmlFile != "" {
		notes = append(notes, "preview: "+htmlFile)
	}
	fmt.Fprintln(stderr, bot.SafeLog(strings.Join(notes, "\n  ")))
	return nil
}

// apart takes the arguments of some kinds out: the rest with their
// kinds, and those taken (kinds are the arguments', in order).
func apart(args []string, kinds []inputs.File, take func(inputs.Kind) bool) (rest []string, restKinds, taken []inputs.File) {
	for i, a := range args {
		if take(kinds[i].Kind) {
			taken = append(taken, kinds[i])
		} else {
			rest, restKinds = append(rest, a), append(restKinds, kinds[i])
		}
	}
	return rest, restKinds, taken
}

// configOf is --config for every root, or each plan's own directory
// when not given ("": see review's configDir).
func configOf(dir string) func(inputs.Root) string {
	return func(inputs.Root) string { return dir }
}

// entries are the arguments as inputs.Roots takes them: NAME=PATH
// labels, streams told by their kind.
func entries(args []string, kinds []inputs.File) []inputs.Entry {
	out := make([]inputs.Entry, len(args))
	for i, in := range args {
		name, path := label(in)
		if name == path {
			name = ""
		}
		out[i] = inputs.Entry{Label: name, Path: path, Stream: kinds[i].Kind == inputs.Stream}
	}
	return out
}

// outputsLine is the Action's step outputs as dry-run says them (the
// comment's id and URL exist only once posted).
func outputsLine(outputs map[string]string) string {
	var parts []string
	for _, k := range []string{"add", "change", "destroy", "has-changes", "errored", "lock-alerts"} {
		parts = append(parts, k+"="+outputs[k])
	}
	return strings.Join(parts, " ")
}

func git(args ...string) (string, error) {
	out, err := exec.Command("git", args...).Output()
	return strings.TrimSpace(string(out)), err
}

func shortRef(s string) string {
	if len(s) > 10 {
		return s[:10]
	}
	return s
}

// defaultBase is the remote's default branch, else main.
func defaultBase() string {
	if ref, err := git("symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); err == nil && ref != "" {
		return ref
	}
	// No remote: the usual default branches, whichever this checkout has.
	for _, b := range []string{"main", "master", "origin/main", "origin/master"} {
		if _, err := git("rev-parse", "--verify", "--quiet", b+"^{commit}"); err == nil {
			return b
		}
	}
	return "main"
}

// changedLocks compares every .terraform.lock.hcl changed between base
// and the working tree (untracked ones too), cross-checked with the root
// module beside it.
func changedLocks(top, base string, tool flavor.Flavor, platforms []string) ([]*lockdiff.FileDiff, error) {
	diff, err := git("-C", top, "diff", "--name-status", "-M", base, "--")
	if err != nil {
		return nil, fmt.Errorf("git diff: %w", err)
	}
	untracked, _ := git("-C", top, "ls-files", "--others", "--exclude-standard")
	type pair struct{ before, after string }
	var pairs []pair
	for _, line := range strings.Split(diff, "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 2 {
			continue
		}
		before, after := f[1], f[len(f)-1]
		if filepath.Base(before) != ".terraform.lock.hcl" && filepath.Base(after) != ".terraform.lock.hcl" {
			continue
		}
		switch f[0][0] {
		case 'A':
			before = ""
		case 'D':
			after = ""
		}
		pairs = append(pairs, pair{before, after})
	}
	for _, u := range strings.Split(untracked, "\n") {
		if filepath.Base(u) == ".terraform.lock.hcl" {
			pairs = append(pairs, pair{"", u})
		}
	}
	var out []*lockdiff.FileDiff
	for _, p := range pairs {
		var beforeSrc, afterSrc []byte
		if p.before != "" {
			s, err := exec.Command("git", "-C", top, "show", base+":"+p.before).Output()
			if err != nil {
				return nil, fmt.Errorf("git show %s:%s: %w", shortRef(base), p.before, err)
			}
			beforeSrc = s
		}
		if p.after != "" {
			if afterSrc, err = os.ReadFile(filepath.Join(top, p.after)); err != nil {
				return nil, err
			}
		}
		name := cmp.Or(p.after, p.before)
		pair := lockdiff.Pair{Path: name, Before: beforeSrc, After: afterSrc, BeforeName: name + "@" + shortRef(base), Flavor: tool, Platforms: platforms}
		if p.after != "" {
			dir := filepath.Dir(p.after)
			if cfg, diags := lockdiff.LoadConfigFS(os.DirFS(filepath.Join(top, dir)), dir); !diags.HasErrors() {
				pair.Config = cfg
			}
		}
		fd, diags := lockdiff.ComparePair(pair)
		if diags.HasErrors() {
			return nil, errors.New(diags.Error())
		}
		out = append(out, fd)
	}
	return out, nil
}

// plural says n things: "1 lock file", "2 lock files".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// expandPatterns expands the arguments that are patterns (DIR/**/plan.json,
// quoted so that the shell leaves them), as the Action's plan input does;
// a pattern that matches nothing is an error naming it.
func expandPatterns(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if !strings.ContainsAny(a, "*?[") {
			out = append(out, a)
			continue
		}
		matches, err := doublestar.FilepathGlob(a)
		if err != nil {
			return nil, &usageError{fmt.Sprintf("pattern %q: %v", a, err)}
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("pattern %q matches no file", a)
		}
		out = append(out, matches...)
	}
	return out, nil
}
