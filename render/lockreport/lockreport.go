// Package lockreport writes lock-file comparisons: for a terminal, as
// the JSON contract says, and as the comment's Markdown section, every
// untrusted value masked, then escaped.
package lockreport

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
)

// The JSON contract of DESIGN.md, one severity scale throughout: each
// finding's, each provider's and each file's worst (alert, warning,
// notice, info), and the counts of alerts and warnings.
type (
	jsonPair struct {
		Before *string `json:"before"`
		After  *string `json:"after"`
	}
	jsonHashes struct {
		Added   []string `json:"added"`
		Removed []string `json:"removed"`
	}
	jsonFinding struct {
		Kind     string `json:"kind"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
	}
	jsonProvider struct {
		Address      string                 `json:"address"`
		Change       string                 `json:"change"`
		Severity     string                 `json:"severity"`
		Version      jsonPair               `json:"version"`
		Constraints  jsonPair               `json:"constraints"`
		Hashes       jsonHashes             `json:"hashes"`
		ChangesURL   string                 `json:"changes_url,omitempty"` // what changed upstream
		Findings     []jsonFinding          `json:"findings"`
		Verification *lockdiff.Verification `json:"verification,omitempty"`
	}
	// File is one lock file's comparison as the JSON says it.
	File struct {
		Path      string         `json:"path"`
		Skipped   bool           `json:"skipped,omitempty"`
		Severity  string         `json:"severity"`
		Alerts    int            `json:"alerts"`
		Warnings  int            `json:"warnings"`
		Providers []jsonProvider `json:"providers"`
		Findings  []jsonFinding  `json:"findings"`
	}
)

// Files are the comparisons as the JSON says them (also in the plans'
// machine summary, as lock_files).
func Files(files []*lockdiff.FileDiff) []File {
	findings := func(fs []lockdiff.Finding) []jsonFinding {
		out := make([]jsonFinding, 0, len(fs))
		for _, f := range fs {
			out = append(out, jsonFinding{f.Kind, string(f.Severity), f.Message})
		}
		return out
	}
	nonNil := func(xs []string) []string {
		if xs == nil {
			return []string{}
		}
		return xs
	}
	out := []File{}
	for _, fd := range files {
		f := File{Path: fd.Path, Skipped: fd.Skipped, Severity: string(fd.MaxSeverity()), Providers: []jsonProvider{}, Findings: findings(fd.Findings)}
		for _, x := range fd.AllFindings() {
			switch x.Severity {
			case lockdiff.Alert, lockdiff.Error:
				f.Alerts++
			case lockdiff.Warning:
				f.Warnings++
			}
		}
		for _, p := range fd.Providers {
			pr := jsonProvider{Address: p.Address.String(), Change: string(p.Change), Severity: string(worst(p.Findings)),
				Hashes: jsonHashes{nonNil(p.HashesAdded), nonNil(p.HashesRemoved)}, ChangesURL: p.ChangesURL, Findings: findings(p.Findings), Verification: p.Verification}
			if p.Before != nil {
				pr.Version.Before, pr.Constraints.Before = &p.Before.RawVersion, &p.Before.Constraints
			}
			if p.After != nil {
				pr.Version.After, pr.Constraints.After = &p.After.RawVersion, &p.After.Constraints
			}
			f.Providers = append(f.Providers, pr)
		}
		out = append(out, f)
	}
	return out
}

// worst is the highest severity of findings (info when none).
func worst(fs []lockdiff.Finding) lockdiff.Severity {
	w := lockdiff.Info
	for _, f := range fs {
		if f.Severity.Rank() > w.Rank() {
			w = f.Severity
		}
	}
	return w
}

// JSON writes lock-file comparisons in the JSON contract of DESIGN.md.
func JSON(w io.Writer, files []*lockdiff.FileDiff) error {
	doc := struct {
		FormatVersion string `json:"format_version"`
		Alerts        int    `json:"alerts"`
		Warnings      int    `json:"warnings"`
		Files         []File `json:"files"`
	}{FormatVersion: "1.0", Files: Files(files)}
	for _, f := range doc.Files {
		doc.Alerts += f.Alerts
		doc.Warnings += f.Warnings
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// Text writes lock-file comparisons for a terminal.
func Text(w io.Writer, files []*lockdiff.FileDiff) error {
	var b strings.Builder
	for i, fd := range files {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s: %s\n", fd.Path, Summary(fd))
		for _, f := range fd.Findings {
			fmt.Fprintf(&b, "  %s: %s\n", f.Severity, f.Message)
		}
		for _, p := range fd.Providers {
			if p.Change == lockdiff.Unchanged && len(p.Findings) == 0 {
				continue
			}
			fmt.Fprintf(&b, "  %s  %s\n", p.Address, changeText(p))
			for _, f := range p.Findings {
				fmt.Fprintf(&b, "    %s: %s\n", f.Severity, f.Message)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func changeText(p *lockdiff.ProviderDiff) string {
	var s string
	switch p.Change {
	case lockdiff.Added:
		s = "added " + p.VersionAfter()
	case lockdiff.Removed:
		s = "removed " + p.VersionBefore()
	case lockdiff.Upgraded, lockdiff.Downgraded:
		s = fmt.Sprintf("%s %s → %s", p.Change, p.VersionBefore(), p.VersionAfter())
	default:
		s = fmt.Sprintf("%s %s", p.Change, p.VersionAfter())
	}
	if n, m := len(p.HashesAdded), len(p.HashesRemoved); n+m > 0 {
		s += fmt.Sprintf(" (hashes +%d -%d)", n, m)
	}
	return s
}

// Summary counts a file's provider changes in words.
func Summary(fd *lockdiff.FileDiff) string {
	if fd.Skipped {
		return "not reviewed"
	}
	counts := map[lockdiff.Change]int{}
	for _, p := range fd.Providers {
		counts[p.Change]++
	}
	var parts []string
	for _, c := range []lockdiff.Change{lockdiff.Added, lockdiff.Removed, lockdiff.Upgraded, lockdiff.Downgraded, lockdiff.Changed} {
		if counts[c] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[c], c))
		}
	}
	switch {
	case fd.Created:
		parts = append([]string{"new lock file"}, parts...)
	case fd.Deleted:
		parts = append([]string{"lock file deleted"}, parts...)
	}
	if len(parts) == 0 {
		parts = append(parts, "no provider changes")
	}
	if alerts := fd.Alerts(); alerts > 0 { // what needs a look first
		parts = append([]string{plural(alerts, "alert", "alerts")}, parts...)
	}
	return strings.Join(parts, ", ")
}

// verifiedMark follows a provider verified against its registry's signed
// checksums (✓), or one whose check alerted (🚨) or could not be made (❔).
func verifiedMark(p *lockdiff.ProviderDiff) string {
	if p.Verification == nil {
		return ""
	}
	switch p.Verification.Status {
	case "verified":
		return " ✓"
	case "alert":
		return " 🚨"
	case "unchecked":
		return " ❔"
	}
	return ""
}

var severityMarks = map[lockdiff.Severity]string{
	lockdiff.Error:   "⛔ **error**",
	lockdiff.Alert:   "🚨 **alert**",
	lockdiff.Warning: "⚠️ **warning**",
	lockdiff.Notice:  "🔎 notice",
	lockdiff.Info:    "ℹ️ info",
}

// Markdown writes the lock-file section of the comment: alerts first,
// then a table per file, then the findings.
func Markdown(w io.Writer, files []*lockdiff.FileDiff) error {
	_, err := io.WriteString(w, Section(files, true, nil))
	return err
}

// Section is the comment's lock-file section, one severity scale
// throughout: alerts in a red CAUTION box, warnings in a WARNING box,
// then a table per file, the notices folded. Without withUrgent, alerts
// and warnings are left to the comment's warning box at the top.
func Section(files []*lockdiff.FileDiff, withUrgent bool, m *mask.Masker) string {
	var b strings.Builder
	b.WriteString("### Lock file changes\n\n")
	for _, fd := range files {
		fmt.Fprintf(&b, "**%s** — %s\n\n", safeText(m, fd.Path), safeText(m, Summary(fd)))
		var alerts, warnings, other []string
		sort := func(f lockdiff.Finding, line string) {
			switch {
			case f.Severity.Rank() >= lockdiff.Alert.Rank():
				alerts = append(alerts, line)
			case f.Severity.Rank() >= lockdiff.Warning.Rank():
				warnings = append(warnings, line)
			default:
				other = append(other, line)
			}
		}
		for _, f := range fd.Findings {
			sort(f, fmt.Sprintf("- %s: %s", severityMarks[f.Severity], safeMessage(m, f.Message)))
		}
		rows := 0
		var table strings.Builder
		table.WriteString("| provider | change | version | constraints | hashes |\n| --- | --- | --- | --- | --- |\n")
		for _, p := range fd.Providers {
			if p.Change == lockdiff.Unchanged && len(p.Findings) == 0 {
				continue
			}
			rows++
			version := safeText(m, versionCell(p))
			if p.ChangesURL != "" { // built from checked parts only (lockdiff.changesURL)
				version += " ([changes](" + p.ChangesURL + "))"
			}
			fmt.Fprintf(&table, "| `%s`%s | %s | %s | %s | %s |\n", p.Address, verifiedMark(p), p.Change, version, safeText(m, constraintsCell(p)),
				fmt.Sprintf("+%d −%d", len(p.HashesAdded), len(p.HashesRemoved)))
			for _, f := range p.Findings {
				sort(f, fmt.Sprintf("- %s `%s`: %s", severityMarks[f.Severity], p.Address.Short(), safeMessage(m, f.Message)))
			}
		}
		if withUrgent {
			b.WriteString(box("CAUTION", alerts))
			b.WriteString(box("WARNING", warnings))
		}
		if rows > 0 {
			b.WriteString(table.String() + "\n")
		}
		if len(other) > 0 {
			fmt.Fprintf(&b, "<details><summary>%s</summary>\n\n", plural(len(other), "more note", "more notes"))
			b.WriteString(strings.Join(other, "\n") + "\n")
			b.WriteString("\n</details>\n\n")
		}
	}
	return b.String()
}

// box is a GitHub alert of kind holding lines ("" when there are none).
func box(kind string, lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return "> [!" + kind + "]\n> " + strings.Join(lines, "\n> ") + "\n\n"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func versionCell(p *lockdiff.ProviderDiff) string {
	switch {
	case p.Before == nil:
		return p.VersionAfter()
	case p.After == nil:
		return p.VersionBefore()
	case p.VersionBefore() == p.VersionAfter():
		return p.VersionAfter()
	}
	return p.VersionBefore() + " → " + p.VersionAfter()
}

func constraintsCell(p *lockdiff.ProviderDiff) string {
	c := func(l *lockdiff.Lock) string {
		if l == nil || l.Constraints == "" {
			return "—"
		}
		return l.Constraints
	}
	if p.Before == nil || p.After == nil || c(p.Before) == c(p.After) {
		if p.After != nil {
			return c(p.After)
		}
		return c(p.Before)
	}
	return c(p.Before) + " → " + c(p.After)
}

// SeverityMark is how the comment marks a finding of a severity.
func SeverityMark(s lockdiff.Severity) string { return severityMarks[s] }

// The one way untrusted values reach this Markdown: masked first, then
// escaped (a nil masker hides credential shapes only).
func safeText(m *mask.Masker, s string) string    { return md.Text(m.Quiet(s)) }
func safeMessage(m *mask.Masker, s string) string { return md.Message(m.Quiet(s)) }
