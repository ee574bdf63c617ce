package comment

import (
	"fmt"
	"slices"
	"strings"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/internal/box"
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

// commentWarnings come first: failed plans, lock-file alerts, everything
// destroyed or replaced (with why), failed checks, failures in the logs,
// lock-file warnings — in at most maxLines lines (see layOutBox), so that
// no kind can push another out. Destroys come before replacements; a
// destroy left without a line of its own is still named in the line that
// follows them.
func commentWarnings(sections []*planSection, locks []*lockdiff.FileDiff, missing []MissingRoot, maxLines int, where string, m *mask.Masker) string {
	if maxLines <= 0 {
		return ""
	}
	errored := &box.Kind{}
	checks := &box.Kind{}
	streams := &box.Kind{}
	var risky []box.Risky
	riskyTotal := 0
	for _, s := range sections {
		if s.Scan.Plan.Errored && len(streamreport.Errors(s.Streams, streamreport.Source{}, "")) == 0 { // else its errors say it
			errored.Lines = append(errored.Lines, fmt.Sprintf("- ❌ planning **failed** for %s: %s reported an error; the changes below are what it planned before the error.", safeCode(m, s.Name), s.Scan.Flavor.Product()))
		}
		checks.Total += s.failedCount
		for _, f := range s.failed {
			checks.Lines = append(checks.Lines, "- ❌ check "+safeText(m, f))
		}
		streams.Lines = append(streams.Lines, s.streamWarn...)
		riskyTotal += s.Scan.Stats.Risky
		for _, g := range s.Scan.Stats.RiskyGroupsBySize() {
			c := g.Example
			c.Address = g.Address()
			risky = append(risky, box.Risky{Line: "- " + riskyLine(c, s, len(sections) > 1, m, g.Count), Name: riskyName(c, g.Count, m),
				Count: g.Count, Delete: c.Action == diff.Delete})
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
					risky = append(risky, box.Risky{Line: "- " + riskyLine(c, s, len(sections) > 1, m, 1), Name: riskyName(c, 1, m), Count: 1, Delete: c.Action == diff.Delete})
				}
			}
		}
	}
	errored.Lines = append(missingLines(missing, m), errored.Lines...)
	errored.Total = len(errored.Lines)
	errored.More = func(i int) string { return fmt.Sprintf("- … and %d more failed plans", len(errored.Lines)-i) }
	checks.Total = max(checks.Total, len(checks.Lines))
	checks.More = func(i int) string { return fmt.Sprintf("- … and %d more failed checks", checks.Total-i) }
	streams.Total = len(streams.Lines)
	streams.More = func(i int) string { return fmt.Sprintf("- … and %d more failures in the logs", len(streams.Lines)-i) }

	// Destroys first, then replacements; the largest groups first.
	box.SortRisky(risky)
	destroys := &box.Kind{Total: riskyTotal}
	listed := 0
	for _, r := range risky {
		destroys.Lines = append(destroys.Lines, r.Line)
		listed += r.Count
	}
	destroys.Total = max(len(destroys.Lines), len(destroys.Lines)+riskyTotal-listed)
	destroys.More = func(i int) string {
		return box.RiskyMore(risky[i:], riskyTotal-box.CountOf(risky[:i]), maxBoxNames, where)
	}

	alerts, warnings := &box.Kind{}, &box.Kind{}
	lockLine := func(sev lockdiff.Severity, line string) {
		switch {
		case sev.Rank() >= lockdiff.Alert.Rank():
			alerts.Lines = append(alerts.Lines, line)
		case sev.Rank() >= lockdiff.Warning.Rank():
			warnings.Lines = append(warnings.Lines, line)
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
	alerts.Total, warnings.Total = len(alerts.Lines), len(warnings.Lines)
	alerts.More = func(i int) string {
		return fmt.Sprintf("- … and %d more lock-file alerts, in the lock file section below", len(alerts.Lines)-i)
	}
	warnings.More = func(i int) string { return fmt.Sprintf("- … and %d more lock-file warnings", len(warnings.Lines)-i) }

	lines := box.LayOut([]*box.Kind{errored, alerts, destroys, checks, streams, warnings}, maxLines)
	if len(lines) == 0 {
		return ""
	}
	kind := "WARNING"
	if riskyTotal > 0 || len(alerts.Lines) > 0 || len(errored.Lines) > 0 {
		kind = "CAUTION"
	}
	return "> [!" + kind + "]\n> " + strings.Join(lines, "\n> ") + "\n\n"
}

// riskyWhere says where the comment names the destroyed or replaced
// changes its warning box has no room for: below, when it names every
// one, else where the full plan is.
func riskyWhere(sections []*planSection, o CommentOptions, level Level) string {
	all := level == LevelFull
	if level == LevelReduced {
		all = !slices.ContainsFunc(sections, func(s *planSection) bool {
			return len(s.unnamed) > 0 || slices.ContainsFunc(s.listed, func(g *listedGroup) bool { return g.risky() && g.mode == listSome }) ||
				slices.ContainsFunc(s.picked, func(g *diffGroup) bool { return isRiskyGroup(g) && s.someAlike[g] != "" })
		})
	}
	if slices.ContainsFunc(sections, func(s *planSection) bool { return s.Path == "" && s.streamsUnnamed }) {
		all = false // a stream alone names its planned changes in its own list
	}
	if all {
		return "all are named below"
	}
	return "all are in " + o.fullText()
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
