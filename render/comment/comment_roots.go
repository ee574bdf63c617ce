package comment

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/review"
)

// MissingRoot is a root a comment of several expected and did not get.
type MissingRoot struct {
	Name string
	Why  string // "its job failed or was cancelled", "not planned at this commit (last at 1a2b3c4)"
}

// countColumn is a column of the table of several roots.
type countColumn struct {
	name  string
	count func(*planSection) int
}

// rootStatus is a root's mark in the table: ❌ failed, ⚠️ something to
// look at (a destroy, a failed check, a lock alert), ✅ otherwise.
func rootStatus(s *planSection, lockAlerts int) string {
	switch {
	case s.Failure() != review.NoFailure:
		return "❌"
	case s.Total.Destroy > 0 || s.failedCount > 0 || lockAlerts > 0:
		return "⚠️"
	}
	return "✅"
}

// rootLockAlerts counts the alerts of the lock files in a root's
// directory.
func rootLockAlerts(s *planSection, locks []*lockdiff.FileDiff) int {
	if s.Root == "" {
		return 0
	}
	n := 0
	for _, fd := range locks {
		if path.Dir(fd.Path) == path.Clean(s.Root) {
			n += fd.Alerts()
		}
	}
	return n
}

// rootsTable is the summary of a comment of several roots: a row each —
// its counts, its status, its lock alerts — the roots that need attention
// first, and the roots expected but missing as failed rows.
func rootsTable(sections []*planSection, o CommentOptions, m *mask.Masker) string {
	// add, change and destroy always; replace, import and forget only
	// when some root has them: a column of zeros is noise.
	columns := []countColumn{
		{"add", func(s *planSection) int { return s.Total.Add }},
		{"change", func(s *planSection) int { return s.Total.Change }},
		{"destroy", func(s *planSection) int { return s.Total.Destroy }},
		{"replace", func(s *planSection) int { return s.Replaced() }},
		{"import", func(s *planSection) int { return s.Total.Import }},
		{"forget", func(s *planSection) int { return s.Total.Forget }},
	}
	columns = slices.DeleteFunc(columns, func(c countColumn) bool {
		if c.name == "add" || c.name == "change" || c.name == "destroy" {
			return false
		}
		return !slices.ContainsFunc(sections, func(s *planSection) bool { return c.count(s) > 0 })
	})
	alerts := len(o.Locks) > 0
	// A findings column when some root has scanners' findings on its
	// changes: "2 high, 1 medium".
	found := slices.ContainsFunc(sections, func(s *planSection) bool { return len(s.Findings.BySeverity()) > 0 })
	var b strings.Builder
	b.WriteString("| root | status |")
	for _, c := range columns {
		b.WriteString(" " + c.name + " |")
	}
	if alerts {
		b.WriteString(" lock alerts |")
	}
	if found {
		b.WriteString(" findings |")
	}
	b.WriteString("\n| --- | :---: |" + strings.Repeat(" ---: |", len(columns)))
	if alerts {
		b.WriteString(" ---: |")
	}
	if found {
		b.WriteString(" --- |")
	}
	b.WriteString("\n")
	empty := strings.Repeat(" |", len(columns))
	if alerts {
		empty += " |"
	}
	if found {
		empty += " |"
	}
	rows := 0
	for _, r := range o.Missing {
		fmt.Fprintf(&b, "| %s | ❌ |%s\n", safeCode(m, r.Name)+" — "+safeText(m, r.Why), empty)
		rows++
	}
	for _, s := range byAttention(sections) {
		if rows == maxPlanRows {
			fmt.Fprintf(&b, "| … and %d more roots | |%s\n", len(sections)+len(o.Missing)-rows, empty)
			break
		}
		n := rootLockAlerts(s, o.Locks)
		fmt.Fprintf(&b, "| %s | %s |", safeCode(m, s.Name), rootStatus(s, n))
		for _, c := range columns {
			fmt.Fprintf(&b, " %d |", c.count(s))
		}
		if alerts {
			fmt.Fprintf(&b, " %d |", n)
		}
		if found {
			fmt.Fprintf(&b, " %s |", SeverityCounts(s.Findings.BySeverity()))
		}
		b.WriteString("\n")
		rows++
	}
	return b.String() + "\n"
}

// attention ranks a root: failed first, then destroying, then changing,
// then the rest.
func attention(s *planSection) int {
	switch {
	case s.Failure() != review.NoFailure:
		return 0
	case s.Total.Destroy > 0:
		return 1
	case s.hasChanges():
		return 2
	}
	return 3
}

// byAttention orders roots by attention, keeping their order otherwise.
func byAttention(sections []*planSection) []*planSection {
	out := slices.Clone(sections)
	slices.SortStableFunc(out, func(a, b *planSection) int { return attention(a) - attention(b) })
	return out
}

// rootSections are the roots of a comment of several, each in its own
// collapsible section — the failed and destroying ones first and open —
// and the roots with nothing to show in one line.
func rootSections(sections []*planSection, level Level, m *mask.Masker) string {
	var b strings.Builder
	var unchanged []string
	shown := 0
	for _, s := range byAttention(sections) {
		if attention(s) == 3 && s.Failure() == review.NoFailure && len(s.drift) == 0 && s.failedCount == 0 {
			unchanged = append(unchanged, safeCode(m, s.Name))
			continue
		}
		if level == LevelSummary && shown == maxPlanRows {
			fmt.Fprintf(&b, "_%d more roots are left out to fit._\n\n", len(sections)-shown)
			break
		}
		shown++
		open := ""
		if attention(s) <= 1 {
			open = " open"
		}
		var body strings.Builder
		s.writeBody(&body, level, m)
		if body.Len() == 0 && s.Failure() != review.NoFailure {
			// Its errors are in the box at the top, in full: the section
			// says so rather than open on nothing.
			body.WriteString("Nothing was planned here: the errors in the box above stopped the run.\n")
		}
		fmt.Fprintf(&b, "<details%s><summary><b>%s</b> — %s</summary>\n\n", open, safeHTML(m, s.Name), sectionText(s))
		b.WriteString(body.String())
		b.WriteString("\n</details>\n\n")
	}
	if len(unchanged) > 0 {
		fmt.Fprintf(&b, "**No changes:** %s\n\n", strings.Join(unchanged, ", "))
	}
	return b.String()
}

// missingLines are the box's lines for the roots expected and missing.
func missingLines(missing []MissingRoot, m *mask.Masker) []string {
	var lines []string
	for _, r := range missing {
		lines = append(lines, fmt.Sprintf("- ❌ %s: no plan — %s", safeCode(m, r.Name), safeText(m, r.Why)))
	}
	return lines
}
