// Package streamreport writes what a UI stream (tofu plan/apply/test
// -json) tells a comment: its failures for the warning box, its errors
// with their snippets, apply results, planned changes, drift, outputs,
// warnings and tests — safe Markdown over a review.StreamSummary, bounded.
package streamreport

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planpr/planpr/render/review"
	txt "github.com/planpr/planpr/render/text"

	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/internal/safe"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/tofujson"
	"github.com/planpr/planpr/render/tofujson/uistream"
)

// operationLine is the stream's own change_summary in OpenTofu's words.
func operationLine(c *uistream.ChangeSummary) string {
	if c == nil {
		return ""
	}
	switch c.Operation {
	case "apply":
		return fmt.Sprintf("Apply complete: %d added, %d changed, %d destroyed", c.Add, c.Change, c.Remove)
	case "destroy":
		return fmt.Sprintf("Destroy complete: %d destroyed", c.Remove)
	}
	return "Plan: " + review.Counts{Import: c.Import, Add: c.Add, Change: c.Change, Destroy: c.Remove, Forget: c.Forget}.String()
}

// streamMarkdown is a stream's part of the comment: failures first, then
// apply results, planned changes (unless a plan JSON shows them), drift,
// outputs, diagnostics, tests. compact keeps only the failures.
// Bounds of a stream's section: failures listed first, then the other
// lists, each cut with a count of what is left out (a stream may hold
// 200,000 test runs).
const (
	maxStreamFailures = 50
	maxStreamRows     = 300
)

// bounded writes up to max lines of a list, then counts the rest.
type bounded struct {
	b          *strings.Builder
	max, shown int
	left       int
}

func (l *bounded) line(s string) {
	if !l.skip() {
		l.shown++
		l.b.WriteString(s)
	}
}

// skip reports (and counts) a line past the bound, before it is made.
func (l *bounded) skip() bool {
	if l.shown >= l.max {
		l.left++
		return true
	}
	return false
}

// end writes how many were left out, with format (holding one %d).
func (l *bounded) end(format string) {
	if l.left > 0 {
		fmt.Fprintf(l.b, format, l.left)
	}
}

// Markdown is a stream's section of a comment, named name.
func Markdown(s *review.StreamSummary, name string, masker *mask.Masker, withPlan, compact bool) string {
	var b strings.Builder
	title := "Log " + safe.Text(masker, name)
	if line := operationLine(s.Changes); line != "" && !withPlan {
		title += " — " + line // beside its plan, the plan's counts say it
	}
	if s.TestSummary != nil {
		title += fmt.Sprintf(" — tests: %d passed, %d failed, %d errored, %d skipped", s.TestSummary.Passed, s.TestSummary.Failed, s.TestSummary.Errored, s.TestSummary.Skipped)
	}
	b.WriteString("#### " + title + "\n\n")
	heading := b.Len()
	// A section that would hold its heading alone (a plan's stream that
	// adds nothing to the plan) is left out.
	result := func() string {
		if b.Len() == heading {
			return ""
		}
		return b.String() + "\n"
	}
	if s.Info.Truncated > 0 {
		fmt.Fprintf(&b, "> [!WARNING]\n> The stream ends in the middle of a message at line %d: the run was probably interrupted, so this summary may be incomplete.\n\n", s.Info.Truncated)
	}
	// Failures first.
	failures := bounded{b: &b, max: maxStreamFailures}
	for _, a := range s.Applies {
		if a.Status == "errored" {
			failures.line(fmt.Sprintf("- ❌ %s: %s **failed** after %s\n", safe.Code(masker, a.Address), safe.Text(masker, a.Action), elapsed(a.Elapsed)))
		}
	}
	_, warns := splitDiagnostics(s.Diagnostics)
	for _, f := range s.Tests {
		for _, r := range f.Runs {
			if r.Status == "fail" || r.Status == "error" {
				if failures.skip() {
					continue
				}
				e, _ := splitDiagnostics(r.Diagnostics)
				text := fmt.Sprintf("- ❌ test %s run %s: %s\n", safe.Code(masker, f.Path), safe.Code(masker, r.Name), safe.Text(masker, r.Status))
				for _, d := range e {
					text += indentLines(diagnosticMarkdown(d, masker, compact), "  ")
				}
				failures.line(text)
			}
		}
	}
	// Its errors are said once, in the comment's errors box (see ErrorBox).
	failures.end("- … and %d more failures\n")
	if compact {
		return result()
	}
	if applies := slices.DeleteFunc(slices.Clone(s.Applies), isRead); len(applies) > 0 {
		b.WriteString("\n| | resource | action | result | time |\n| --- | --- | --- | --- | ---: |\n")
		rows := bounded{b: &b, max: maxStreamRows}
		for _, a := range applies {
			icon, result := "⏳", "not finished"
			switch a.Status {
			case "complete":
				icon, result = "✅", "complete"
				if a.IDValue != "" {
					result += " " + md.Code(a.IDKey+"="+masker.Mask(a.IDValue))
				}
			case "errored":
				icon, result = "❌", "errored"
			}
			rows.line(fmt.Sprintf("| %s | %s | %s | %s | %s |\n", icon, safe.TableCode(masker, a.Address), safe.Text(masker, a.Action), strings.ReplaceAll(result, "|", "\\|"), elapsed(a.Elapsed)))
		}
		rows.end("| | … and %d more resources | | | |\n")
		b.WriteString("\n")
		outputs := bounded{b: &b, max: maxStreamFailures}
		for _, a := range s.Applies {
			for _, p := range a.Provisioners {
				if len(p.Output) == 0 {
					continue
				}
				state := "output"
				if p.Errored {
					state = "output (errored)"
				}
				if outputs.skip() {
					continue
				}
				outputs.line(md.Details(safe.HTML(masker, a.Address)+" "+safe.HTML(masker, p.Name)+" "+state,
					md.Fence(md.Visible(masker.Mask(strings.Join(p.Output, "\n"))), "text")))
			}
		}
		outputs.end("… and %d more provisioner outputs\n\n")
	}
	if !withPlan && len(s.Planned) > 0 {
		b.WriteString("\n**Planned changes**\n\n")
		b.WriteString(itemLines(s.Planned, masker, "- … and %d more planned changes\n"))
	}
	if !withPlan && len(s.Drift) > 0 {
		b.WriteString("\n**Changed outside " + s.Flavor.Product() + "**\n\n")
		b.WriteString(itemLines(s.Drift, masker, "- … and %d more changed outside "+s.Flavor.Product()+"\n"))
	}
	if len(s.Outputs) > 0 && !withPlan { // beside its plan, the plan's output diff says it
		b.WriteString("\n**Outputs**\n\n" + outputsBlock(s.Outputs, masker))
	}
	warnings := bounded{b: &b, max: maxStreamFailures}
	for _, d := range warns {
		if warnings.skip() {
			continue
		}
		warnings.line(diagnosticMarkdown(d, masker, false))
	}
	warnings.end("\n… and %d more warnings\n")
	if len(s.Tests) > 0 {
		b.WriteString(testsMarkdown(s, masker))
	}
	if len(s.Cleanup) > 0 {
		b.WriteString("\n⚠️ Resources the tests could not destroy:\n\n")
		cleanup := bounded{b: &b, max: maxStreamRows}
		for _, r := range s.Cleanup {
			cleanup.line("- " + safe.Code(masker, r) + "\n")
		}
		cleanup.end("- … and %d more resources\n")
	}
	if len(s.Other) > 0 {
		b.WriteString("\n**Other messages**\n\n")
		other := bounded{b: &b, max: maxStreamRows}
		for _, m := range s.Other {
			if other.skip() {
				continue
			}
			other.line("- " + md.Text(masker.Mask(m)) + "\n")
		}
		other.end("- … and %d more messages\n")
	}
	return result()
}

// isRead reports a data source read that completed: planning reads data
// sources, and a table of them says nothing a reviewer needs (a read that
// fails is listed with the failures).
func isRead(a *review.ApplyResult) bool { return a.Action == "read" && a.Status != "errored" }

// itemGroups groups planned changes (or drift) as a plan's listing does:
// by action, reason and address pattern, a move on its own, in order of
// appearance; firsts are each group's first item.
func itemGroups(items []review.StreamItem) (groups []*review.ChangeGroup, firsts []review.StreamItem) {
	var gs review.Groups
	for _, it := range items {
		key := it.Action + "\x00" + it.Reason
		if it.Previous != "" && it.Previous != it.Address {
			key += "\x00" + it.Address // a move: its own line, with where from
		}
		if _, isNew := gs.Add(key, review.ChangeSummary{Address: it.Address}); isNew {
			firsts = append(firsts, it)
		}
	}
	return gs.List, firsts
}

// itemLines names the items in groups, up to maxStreamRows lines of
// their exact names (ranges, keys) — the first members, then the rest in
// one pattern, past maxItemNames characters — then says how many more
// there are (more holds one %d).
func itemLines(items []review.StreamItem, masker *mask.Masker, more string) string {
	var b strings.Builder
	groups, firsts := itemGroups(items)
	left := 0
	for i, g := range groups {
		if i >= maxStreamRows {
			left += g.Count
			continue
		}
		names := safe.Code(masker, strings.Join(g.Exact(), ", "))
		if len(names) > maxItemNames {
			names = g.NamedWithin(maxItemNames, func(n string) string { return safe.Code(masker, n) })
		}
		it := firsts[i]
		line := "- " + safe.Text(masker, it.Action) + " " + names
		if it.Previous != "" && it.Previous != it.Address {
			line += " (from " + safe.Code(masker, it.Previous) + ")"
		}
		if it.Reason != "" {
			line += " — " + safe.Text(masker, strings.ReplaceAll(it.Reason, "_", " "))
		}
		if g.Count > 1 {
			line += fmt.Sprintf(" (%d)", g.Count)
		}
		b.WriteString(line + "\n")
	}
	if left > 0 {
		fmt.Fprintf(&b, more, left)
	}
	return b.String()
}

// AllNamed reports whether itemLines names every item exactly.
func AllNamed(items []review.StreamItem) bool {
	groups, _ := itemGroups(items)
	return len(groups) <= maxStreamRows && !slices.ContainsFunc(groups, func(g *review.ChangeGroup) bool {
		return len(strings.Join(g.Exact(), ", ")) > maxItemNames-2 // its code span's backticks
	})
}

// maxItemNames bounds a line naming a group of a stream's items.
const maxItemNames = 2000

// NameBeside names a stream as its plan is named: beside the plan's source
// (planSource, for the plan read from planPath) when the two files sit
// together (an artifact's temporary directory, a workspace); else as
// given, or, when that would be only its file's name (a runner's
// temporary directory), in its root module's directory in the repository
// (root, when known), as the Action names the same stream.
func NameBeside(planPath, planSource, root, stream string) string {
	if planPath != "" && planSource != "" && filepath.Dir(planPath) == filepath.Dir(stream) {
		return path.Join(path.Dir(filepath.ToSlash(DisplayPath(planSource))), filepath.Base(stream))
	}
	name := DisplayPath(stream)
	if filepath.IsAbs(stream) && name == filepath.Base(stream) && root != "" && root != "." {
		return path.Join(root, name)
	}
	return name
}

// DisplayPath is how the comment names an input: as given when relative,
// else relative to the working directory, else by its name — never the
// runner's absolute path.
func DisplayPath(p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return filepath.Base(p)
}

func elapsed(sec float64) string {
	return fmt.Sprintf("%gs", sec)
}

func splitDiagnostics(ds []*uistream.Diagnostic) (errs, warns []*uistream.Diagnostic) {
	for _, d := range ds {
		if d.Severity == "error" {
			errs = append(errs, d)
		} else {
			warns = append(warns, d)
		}
	}
	return errs, warns
}

func indentLines(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// diagnosticMarkdown shows a diagnostic as OpenTofu's terminal does: the
// severity and summary, where, the source snippet with the problem
// underlined, and the detail.
func diagnosticMarkdown(d *uistream.Diagnostic, masker *mask.Masker, compact bool) string {
	var b strings.Builder
	sev := "⚠️ **Warning**"
	if d.Severity == "error" {
		sev = "❌ **Error**"
	}
	fmt.Fprintf(&b, "\n%s: %s", sev, md.Text(masker.Mask(d.Summary)))
	if d.Range != nil {
		fmt.Fprintf(&b, " (%s)", safe.Code(masker, fmt.Sprintf("%s:%d", d.Range.Filename, d.Range.Start.Line)))
	}
	b.WriteString("\n\n")
	if compact {
		return b.String()
	}
	if sn := d.Snippet; sn != nil && sn.Code != "" {
		b.WriteString(md.Fence(md.Visible(masker.Mask(snippetText(d))), "hcl"))
		b.WriteString("\n")
	}
	if d.Detail != "" {
		var lines []string
		for _, l := range strings.Split(masker.Mask(d.Detail), "\n") {
			lines = append(lines, safe.Text(masker, l))
		}
		b.WriteString(strings.Join(lines, "<br>\n") + "\n\n")
	}
	return b.String()
}

// snippetText numbers the snippet's lines and underlines the highlighted
// part with carets.
func snippetText(d *uistream.Diagnostic) string {
	sn := d.Snippet
	var b strings.Builder
	if sn.Context != nil && d.Range != nil {
		fmt.Fprintf(&b, "on %s line %d, in %s:\n", d.Range.Filename, d.Range.Start.Line, *sn.Context)
	}
	offset := 0
	for i, line := range strings.Split(sn.Code, "\n") {
		prefix := fmt.Sprintf("%4d: ", sn.StartLine+i)
		b.WriteString(prefix + line + "\n")
		start, end := sn.HighlightStartOffset-offset, sn.HighlightEndOffset-offset
		if end > 0 && start < len(line) {
			start, end = max(start, 0), min(end, len(line))
			if end > start {
				b.WriteString(strings.Repeat(" ", len(prefix)+len([]rune(line[:start]))) + strings.Repeat("^", max(1, len([]rune(line[start:end])))) + "\n")
			}
		}
		offset += len(line) + 1
	}
	for _, v := range sn.Values {
		fmt.Fprintf(&b, "    ├─ %s %s\n", v.Traversal, v.Statement)
	}
	return b.String()
}

// outputsBlock shows the stream's outputs; sensitive ones are masked.
func outputsBlock(outputs map[string]uistream.StreamOutput, masker *mask.Masker) string {
	names, width := txt.NamesAndWidth(outputs)
	var b strings.Builder
	for _, name := range names {
		o := outputs[name]
		var value string
		switch {
		case o.Sensitive:
			value = mask.Masked
		case o.Value == nil && o.Action != "":
			value = "(" + o.Action + ")"
		default:
			var vb txt.Buf
			c := tofujson.Change{Before: o.Value, After: o.Value}
			txt.Node(&vb, diff.ForValue(&c), 0, txt.Opts{ShowUnchanged: true, HideSymbols: true})
			value = vb.String()
		}
		fmt.Fprintf(&b, "%-*s = %s\n", width, txt.AttrName(name), value)
	}
	return md.Fence(md.Visible(masker.Mask(b.String())), "hcl") + "\n"
}

func testsMarkdown(s *review.StreamSummary, masker *mask.Masker) string {
	var b strings.Builder
	b.WriteString("\n**Tests**\n\n| file | run | status |\n| --- | --- | --- |\n")
	icons := map[string]string{"pass": "✅", "fail": "❌", "error": "❌", "skip": "⏭️"}
	rows := bounded{b: &b, max: maxStreamRows}
	for _, f := range s.Tests {
		if len(f.Runs) == 0 {
			rows.line(fmt.Sprintf("| %s | | %s %s |\n", safe.TableCode(masker, f.Path), icons[f.Status], safe.Text(masker, f.Status)))
		}
		for _, r := range f.Runs {
			if rows.skip() {
				continue
			}
			rows.line(fmt.Sprintf("| %s | %s | %s %s |\n", safe.TableCode(masker, f.Path), safe.TableCode(masker, r.Name), icons[r.Status], safe.Text(masker, r.Status)))
		}
	}
	rows.end("| … and %d more runs | | |\n")
	if t := s.TestSummary; t != nil {
		fmt.Fprintf(&b, "\n**%s**: %d passed, %d failed, %d errored, %d skipped.\n", safe.Text(masker, t.Status), t.Passed, t.Failed, t.Errored, t.Skipped)
	}
	diags := bounded{b: &b, max: maxStreamFailures}
	for _, f := range s.Tests {
		for _, d := range f.Diagnostics {
			if diags.skip() {
				continue
			}
			diags.line(diagnosticMarkdown(d, masker, false))
		}
		for _, r := range f.Runs {
			if r.Status == "fail" || r.Status == "error" {
				continue // shown with the failures
			}
			for _, d := range r.Diagnostics {
				if diags.skip() {
					continue
				}
				diags.line(diagnosticMarkdown(d, masker, false))
			}
		}
	}
	diags.end("\n… and %d more test diagnostics\n")
	return b.String()
}
