package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/lockreport"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/streamreport"
)

// maxBoxLines bounds the warning box at the top of a comment: what a
// reviewer reads first must stay short (1,500 failed checks used to push
// the lock alert out of the comment; 1,180 destroy lines made the box the
// comment).
const maxBoxLines = 20

// maxWarningsOfAKind bounds the failed checks a section keeps for the box.
const maxWarningsOfAKind = maxBoxLines

// maxBoxNames bounds the names the last line of a kind gives inline for
// what its own lines could not hold.
const maxBoxNames = 1500

// boxKind is one kind of warning in the box: its lines, in order, and the
// line that stands for those the box has no room for.
type boxKind struct {
	lines []string
	// total is how many things the kind counts (at least len(lines): a
	// line can stand for a group, and a kind may keep only its first few).
	total int
	// more is the line for the lines from i on that are left out.
	more func(i int) string
}

// cost is how many lines the kind takes with n of its lines shown.
func (k *boxKind) cost(n int) int {
	if n < len(k.lines) || k.total > len(k.lines) && n > 0 {
		return n + 1
	}
	return n
}

// layOutBox shares maxLines among the kinds, in their order of priority:
// every kind gets a line, then one more each in turn while they fit;
// what a kind cannot show is said by its more line.
func layOutBox(kinds []*boxKind, maxLines int) []string {
	kinds = slices.DeleteFunc(kinds, func(k *boxKind) bool { return len(k.lines) == 0 })
	shown := make([]int, len(kinds))
	used := 0
	for i, k := range kinds {
		if used+k.cost(1) > maxLines && used > 0 {
			break
		}
		shown[i] = 1
		used += k.cost(1)
	}
	for grew := true; grew; {
		grew = false
		for i, k := range kinds {
			if shown[i] == 0 || shown[i] == len(k.lines) {
				continue
			}
			if d := k.cost(shown[i]+1) - k.cost(shown[i]); used+d <= maxLines {
				shown[i]++
				used += d
				grew = true
			}
		}
	}
	var out []string
	for i, k := range kinds {
		if shown[i] == 0 {
			continue
		}
		out = append(out, k.lines[:shown[i]]...)
		if shown[i] < len(k.lines) || k.total > len(k.lines) {
			out = append(out, k.more(shown[i]))
		}
	}
	return out
}

// riskyEntry is a warning for a group of destroyed or replaced changes:
// its line, its name for the more line, and how many changes it stands
// for.
type riskyEntry struct {
	line, name string
	count      int
	delete     bool
}

// commentWarnings come first: failed plans, lock-file alerts, everything
// destroyed or replaced (with why), failed checks, failures in the logs,
// lock-file warnings — in at most maxLines lines (see layOutBox), so that
// no kind can push another out. Destroys come before replacements; a
// destroy left without a line of its own is still named in the line that
// follows them.
func commentWarnings(sections []*planSection, locks []*lockdiff.FileDiff, maxLines int, m *mask.Masker) string {
	if maxLines <= 0 {
		return ""
	}
	errored := &boxKind{}
	checks := &boxKind{}
	streams := &boxKind{}
	var risky []riskyEntry
	riskyTotal := 0
	for _, s := range sections {
		if s.Scan.Plan.Errored && len(streamreport.Errors(s.Streams, streamreport.Source{}, "")) == 0 { // else its errors say it
			errored.lines = append(errored.lines, fmt.Sprintf("- ❌ planning **failed** for %s: %s reported an error; the changes below are what it planned before the error.", safeCode(m, s.Name), s.Scan.Flavor.Product()))
		}
		checks.total += s.failedCount
		for _, f := range s.failed {
			checks.lines = append(checks.lines, "- ❌ check "+safeText(m, f))
		}
		streams.lines = append(streams.lines, s.streamWarn...)
		riskyTotal += s.Scan.Stats.Risky
		for _, g := range s.Scan.Stats.RiskyGroupsBySize() {
			c := g.Example
			c.Address = g.Address()
			risky = append(risky, riskyEntry{line: "- " + riskyLine(c, s, len(sections) > 1, m, g.Count), name: riskyName(c, g.Count, m),
				count: g.Count, delete: c.Action == diff.Delete})
		}
		if s.Path == "" {
			// A stream alone: its planned changes are all there is, and
			// what it destroys belongs in this box as a plan's would.
			for _, st := range s.Streams {
				for _, it := range st.Planned {
					if it.Action != "delete" && it.Action != "replace" {
						continue
					}
					riskyTotal++
					c := streamChange(it)
					risky = append(risky, riskyEntry{line: "- " + riskyLine(c, s, len(sections) > 1, m, 1), name: riskyName(c, 1, m), count: 1, delete: c.Action == diff.Delete})
				}
			}
		}
	}
	errored.total = len(errored.lines)
	errored.more = func(i int) string { return fmt.Sprintf("- … and %d more failed plans", len(errored.lines)-i) }
	checks.total = max(checks.total, len(checks.lines))
	checks.more = func(i int) string { return fmt.Sprintf("- … and %d more failed checks", checks.total-i) }
	streams.total = len(streams.lines)
	streams.more = func(i int) string { return fmt.Sprintf("- … and %d more failures in the logs", len(streams.lines)-i) }

	// Destroys first, then replacements; the largest groups first.
	slices.SortStableFunc(risky, func(a, b riskyEntry) int {
		if a.delete != b.delete {
			if a.delete {
				return -1
			}
			return 1
		}
		return b.count - a.count
	})
	destroys := &boxKind{total: riskyTotal}
	listed := 0
	for _, r := range risky {
		destroys.lines = append(destroys.lines, r.line)
		listed += r.count
	}
	destroys.total = max(len(destroys.lines), len(destroys.lines)+riskyTotal-listed)
	destroys.more = func(i int) string { return riskyMore(risky[i:], riskyTotal-countOf(risky[:i])) }

	alerts, warnings := &boxKind{}, &boxKind{}
	lockLine := func(sev lockdiff.Severity, line string) {
		switch {
		case sev.Rank() >= lockdiff.Alert.Rank():
			alerts.lines = append(alerts.lines, line)
		case sev.Rank() >= lockdiff.Warning.Rank():
			warnings.lines = append(warnings.lines, line)
		}
	}
	for _, fd := range locks {
		for _, f := range fd.Findings {
			lockLine(f.Severity, fmt.Sprintf("- %s %s: %s", lockreport.SeverityMark(f.Severity), safeText(m, fd.Path), safeMessage(m, f.Message)))
		}
		for _, p := range fd.Providers {
			for _, f := range p.Findings {
				lockLine(f.Severity, fmt.Sprintf("- %s %s: %s", lockreport.SeverityMark(f.Severity), safeCode(m, p.Address.Short()), safeMessage(m, f.Message)))
			}
		}
	}
	alerts.total, warnings.total = len(alerts.lines), len(warnings.lines)
	alerts.more = func(i int) string {
		return fmt.Sprintf("- … and %d more lock-file alerts, in the lock file section below", len(alerts.lines)-i)
	}
	warnings.more = func(i int) string { return fmt.Sprintf("- … and %d more lock-file warnings", len(warnings.lines)-i) }

	lines := layOutBox([]*boxKind{errored, alerts, destroys, checks, streams, warnings}, maxLines)
	if len(lines) == 0 {
		return ""
	}
	kind := "WARNING"
	if riskyTotal > 0 || len(alerts.lines) > 0 || len(errored.lines) > 0 {
		kind = "CAUTION"
	}
	return "> [!" + kind + "]\n> " + strings.Join(lines, "\n> ") + "\n\n"
}

func countOf(rs []riskyEntry) int {
	n := 0
	for _, r := range rs {
		n += r.count
	}
	return n
}

// riskyMore is the line for the destroyed and replaced changes the box
// has no line for: named inline, destroys first and the ones that stand
// alone before groups, up to maxBoxNames characters.
func riskyMore(rest []riskyEntry, total int) string {
	rest = slices.Clone(rest)
	slices.SortStableFunc(rest, func(a, b riskyEntry) int {
		if a.delete != b.delete {
			if a.delete {
				return -1
			}
			return 1
		}
		return a.count - b.count
	})
	var names []string
	size, named := 0, 0
	for _, r := range rest {
		if size+len(r.name) > maxBoxNames {
			break
		}
		names = append(names, r.name)
		size += len(r.name) + 2
		named += r.count
	}
	line := fmt.Sprintf("- … and %d more destroyed or replaced", total)
	if len(names) > 0 {
		line += ": " + strings.Join(names, ", ")
	}
	if named < total {
		line += "; all are named below"
	}
	return line
}

// riskyName is a destroyed or replaced change (or count of them) named
// for the box's more line.
func riskyName(c review.ChangeSummary, count int, m *mask.Masker) string {
	what := "destroyed"
	if c.Action != diff.Delete {
		what = "replaced"
	}
	if count > 1 {
		return fmt.Sprintf("%s (%d %s)", safeCode(m, c.Address), count, what)
	}
	return fmt.Sprintf("%s (%s)", safeCode(m, c.Address), what)
}
