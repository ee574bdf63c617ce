package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/planpr/planpr/flavor"
	"io"
	"io/fs"
	"os"

	"github.com/planpr/planpr/bot"

	"github.com/hashicorp/hcl/v2"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/lockreport"
)

func runLockdiff(args []string, stdout, stderr io.Writer) error {
	var format, configDir, flavorName string
	fl := flag.NewFlagSet("lockdiff", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.StringVar(&format, "format", "text", "output `FORMAT`: text, markdown (the comment's section) or json")
	fl.StringVar(&configDir, "config", "", "root module `DIR` to cross-check required_providers against the AFTER lock file")
	fl.StringVar(&flavorName, "flavor", "auto", "whose commands the advice names, `FLAVOR`: terraform, opentofu, or auto (the lock file's registries tell)")
	var vf verifyFlags
	vf.add(fl)
	fl.Usage = func() {
		fmt.Fprint(stderr, `Usage: planpr lockdiff [flags] BEFORE AFTER [BEFORE AFTER...]

Compares .terraform.lock.hcl files provider by provider and explains each change:
versions, constraints, hashes, and what a reviewer should worry about. With --verify,
each new or changed provider version is checked against its registry: every zh: hash
must be in the SHA256SUMS the registry's key signed (else an alert). Only
registry.opentofu.org, registry.terraform.io and the hosts of --registry and
--verify-host are contacted; providers of other hosts are not checked. BEFORE or AFTER
may be an empty file or /dev/null (the lock file was created or deleted); a missing file is an error. Several
pairs (a monorepo) go into one report.

Flags:
`)
		fl.PrintDefaults()
	}
	files, err := parseFlags(fl, joinVerifyMode(args))
	if err != nil {
		return err
	}
	if len(files) == 0 || len(files)%2 != 0 {
		return &usageError{"lockdiff needs pairs of lock files: BEFORE AFTER (use /dev/null for a missing side)"}
	}
	switch format {
	case "text", "markdown", "json":
	default:
		return &usageError{fmt.Sprintf("--format %q: want text, markdown or json", format)}
	}
	tool, err := flavor.Parse(flavorName)
	if err != nil {
		return &usageError{"--" + err.Error()}
	}
	platforms, err := vf.platformsOf()
	if err != nil {
		return err
	}
	var cfg *lockdiff.Config
	if configDir != "" {
		if st, err := os.Stat(configDir); err != nil || !st.IsDir() {
			return fmt.Errorf("%s: not a directory", configDir)
		}
		c, diags := lockdiff.LoadConfig(configDir)
		if err := diagnosticsError(diags, stderr, nil); err != nil {
			return err
		}
		cfg = c
	}
	var diffs []*lockdiff.FileDiff
	var failed bool
	for i := 0; i < len(files); i += 2 {
		before, errB := readLock(files[i], stderr)
		after, errA := readLock(files[i+1], stderr)
		if errB == nil && errA == nil {
			errB, errA = notALockFile(files[i], before, stderr), notALockFile(files[i+1], after, stderr)
		}
		if errB != nil || errA != nil {
			failed = true
			continue
		}
		fd, diags := lockdiff.ComparePair(lockdiff.Pair{Path: files[i+1], DeletedPath: files[i], Before: before, After: after, BeforeName: files[i], Config: cfg, Flavor: tool, Platforms: platforms})
		if diagnosticsError(diags, stderr, map[string][]byte{files[i]: before, files[i+1]: after}) != nil {
			failed = true
			continue
		}
		diffs = append(diffs, fd)
	}
	if failed {
		return errors.New("lock files have errors (above); nothing compared")
	}
	v, err := vf.verifier()
	if err != nil {
		return err
	}
	if v != nil {
		// A registry that cannot be asked is a finding, never a failure.
		v.Verify(context.Background(), diffs)
	}
	var out bytes.Buffer
	switch format {
	case "json":
		err = lockreport.JSON(&out, diffs)
	case "markdown":
		err = lockreport.Markdown(&out, diffs)
	default:
		err = lockreport.Text(&out, diffs)
	}
	if err != nil {
		return err
	}
	_, err = stdout.Write(out.Bytes())
	return err
}

// readLock reads a lock file; a missing one is empty (created or deleted).
func readLock(path string, stderr io.Writer) ([]byte, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		fmt.Fprintln(stderr, bot.SafeLog(fmt.Sprintf("%s: a directory, not a lock file: name the .terraform.lock.hcl in it", path)))
		return nil, errors.New("a directory")
	}
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		// A typo must not read as "lock file deleted": a side that does
		// not exist is said with /dev/null (or an empty file).
		fmt.Fprintln(stderr, bot.SafeLog(fmt.Sprintf("%s: no such file; for a lock file created or deleted, pass /dev/null (or an empty file) for the side that does not exist", path)))
		return nil, err
	} else if err != nil {
		fmt.Fprintln(stderr, bot.SafeLog(fmt.Sprintf("%s: %v", path, err)))
		return nil, err
	}
	return src, nil
}

// diagnosticsError prints diagnostics as hcl does (summary, the source
// lines of sources, detail), each led by file:line:column, and returns an
// error if any is an error. sources are the files' bytes, for the snippet.
func diagnosticsError(diags hcl.Diagnostics, stderr io.Writer, sources map[string][]byte) error {
	files := map[string]*hcl.File{}
	for name, src := range sources {
		files[name] = &hcl.File{Bytes: src}
	}
	for _, d := range diags {
		var text bytes.Buffer
		if d.Subject != nil {
			fmt.Fprintf(&text, "%s:%d:%d: ", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
		}
		if err := hcl.NewDiagnosticTextWriter(&text, files, 0, false).WriteDiagnostic(d); err != nil {
			return err
		}
		// Snippets and details quote the file: no line of them may read as
		// a workflow command in a CI log.
		fmt.Fprint(stderr, bot.SafeLog(text.String()))
	}
	if diags.HasErrors() {
		return errors.New("invalid input (see above)")
	}
	return nil
}

// notALockFile refuses, in one line, a JSON document given for a lock
// file: a plan, a state, provider schemas or a UI stream said as what they
// are, not as an HCL error quoting a 6 KB line.
func notALockFile(path string, src []byte, stderr io.Writer) error {
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' && trimmed[0] != '[' {
		return nil
	}
	what := "a JSON document"
	head := trimmed[:min(len(trimmed), 4096)]
	switch {
	case bytes.Contains(head, []byte(`"type":"version"`)) || bytes.Contains(head, []byte(`"@message"`)):
		what = "a UI stream (`-json` output of plan, apply or test)"
	case bytes.Contains(head, []byte(`"provider_schemas"`)):
		what = "provider schemas (`providers schema -json`)"
	case bytes.Contains(head, []byte(`"resource_changes"`)) || bytes.Contains(head, []byte(`"planned_values"`)) || bytes.Contains(head, []byte(`"output_changes"`)):
		what = "a plan (`show -json PLANFILE`)"
	case bytes.Contains(head, []byte(`"values"`)) || bytes.Contains(head, []byte(`"serial"`)):
		what = "a state"
	}
	fmt.Fprintln(stderr, bot.SafeLog(fmt.Sprintf("%s: this is %s, not a lock file: give lockdiff two .terraform.lock.hcl files (planpr render reads plans)", path, what)))
	return errors.New("not a lock file")
}
