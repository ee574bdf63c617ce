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

// JSON writes lock-file comparisons in the JSON contract of DESIGN.md.
func JSON(w io.Writer, files []*lockdiff.FileDiff) error {
	type pair struct {
		Before *string `json:"before"`
		After  *string `json:"after"`
	}
	type hashes struct {
		Added   []string `json:"added"`
		Removed []string `json:"removed"`
	}
	type finding struct {
		Kind     string `json:"kind"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
	}
	type provider struct {
		Address      string                 `json:"address"`
		Change       string                 `json:"change"`
		Version      pair                   `json:"version"`
		Constraints  pair                   `json:"constraints"`
		Hashes       hashes                 `json:"hashes"`
		Findings     []finding              `json:"findings"`
		Verification *lockdiff.Verification `json:"verification,omitempty"`
	}
	type file struct {
		Path      string     `json:"path"`
		Skipped   bool       `json:"skipped,omitempty"`
		Providers []provider `json:"providers"`
		Findings  []finding  `json:"findings"`
	}
	findings := func(fs []lockdiff.Finding) []finding {
		out := make([]finding, 0, len(fs))
		for _, f := range fs {
			out = append(out, finding{f.Kind, string(f.Severity), f.Message})
		}
		return out
	}
	nonNil := func(xs []string) []string {
		if xs == nil {
			return []string{}
		}
		return xs
	}
	doc := struct {
		FormatVersion string `json:"format_version"`
		Files         []file `json:"files"`
	}{FormatVersion: "1.0", Files: []file{}}
	for _, fd := range files {
		f := file{Path: fd.Path, Skipped: fd.Skipped, Providers: []provider{}, Findings: findings(fd.Findings)}
		for _, p := range fd.Providers {
			pr := provider{Address: p.Address.String(), Change: string(p.Change),
				Hashes: hashes{nonNil(p.HashesAdded), nonNil(p.HashesRemoved)}, Findings: findings(p.Findings), Verification: p.Verification}
			if p.Before != nil {
				pr.Version.Before, pr.Constraints.Before = &p.Before.RawVersion, &p.Before.Constraints
			}
			if p.After != nil {
				pr.Version.After, pr.Constraints.After = &p.After.RawVersion, &p.After.Constraints
			}
			f.Providers = append(f.Providers, pr)
		}
		doc.Files = append(doc.Files, f)
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
		return "no provider changes"
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

// lockMarkdown is the section; without urgent, warnings and alerts are left
// to the comment's warnings at the top.
func Section(files []*lockdiff.FileDiff, withUrgent bool, m *mask.Masker) string {
	var b strings.Builder
	b.WriteString("### Lock file changes\n\n")
	for _, fd := range files {
		fmt.Fprintf(&b, "**%s** — %s\n\n", safeText(m, fd.Path), safeText(m, Summary(fd)))
		var urgent, other []string
		for _, f := range fd.Findings {
			line := fmt.Sprintf("- %s: %s\n", severityMarks[f.Severity], safeMessage(m, f.Message))
			if f.Severity.Rank() >= lockdiff.Warning.Rank() {
				urgent = append(urgent, line)
			} else {
				other = append(other, line)
			}
		}
		rows := 0
		var table strings.Builder
		table.WriteString("| provider | change | version | constraints | hashes |\n| --- | --- | --- | --- | --- |\n")
		for _, p := range fd.Providers {
			if p.Change == lockdiff.Unchanged && len(p.Findings) == 0 {
				continue
			}
			rows++
			fmt.Fprintf(&table, "| `%s`%s | %s | %s | %s | %s |\n", p.Address, verifiedMark(p), p.Change, safeText(m, versionCell(p)), safeText(m, constraintsCell(p)),
				fmt.Sprintf("+%d −%d", len(p.HashesAdded), len(p.HashesRemoved)))
			for _, f := range p.Findings {
				line := fmt.Sprintf("- %s `%s`: %s\n", severityMarks[f.Severity], p.Address.Short(), safeMessage(m, f.Message))
				if f.Severity.Rank() >= lockdiff.Warning.Rank() {
					urgent = append(urgent, line)
				} else {
					other = append(other, line)
				}
			}
		}
		if withUrgent {
			for _, l := range urgent {
				b.WriteString(l)
			}
			if len(urgent) > 0 {
				b.WriteString("\n")
			}
		}
		if rows > 0 {
			b.WriteString(table.String() + "\n")
		}
		if len(other) > 0 {
			fmt.Fprintf(&b, "<details><summary>%d more notes</summary>\n\n", len(other))
			for _, l := range other {
				b.WriteString(l)
			}
			b.WriteString("\n</details>\n\n")
		}
	}
	return b.String()
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
