package comment

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/planpr/planpr/render/findings"
	"github.com/planpr/planpr/render/internal/words"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
)

// The findings part names at most this many rules, and this many
// resources on a rule's line: a report much larger than the plan stays
// a few lines, counted past them.
const (
	maxFindingRules     = 20
	maxFindingAddresses = 5
)

// findingRule is one rule's findings on the changes shown.
type findingRule struct {
	f         findings.Finding // the first: its tool, rule, severity, message, help
	addresses []string
	n         int
}

// findingsPart is a root's scanner findings, before its diffs at every
// size: a line per rule on the changes the plan shows (the most severe
// first, one line for any number of alike resources), then, folded, the
// findings on resources the plan leaves alone and those on no resource of
// the plan. Every text of a report is untrusted: masked and escaped.
func (s *planSection) findingsPart(m *mask.Masker) string {
	if s.findingsMD == nil { // the same at every size: made once, however often the budget measures
		part := s.makeFindingsPart(m)
		s.findingsMD = &part
	}
	return *s.findingsMD
}

func (s *planSection) makeFindingsPart(m *mask.Masker) string {
	f := s.Findings
	if f == nil {
		return ""
	}
	var rules []*findingRule
	byKey := map[string]*findingRule{}
	total := 0
	for _, c := range f.OnChanges {
		for _, x := range c.Findings {
			total++
			key := x.Tool + "\x00" + x.RuleID + "\x00" + x.Severity.String()
			r := byKey[key]
			if r == nil {
				r = &findingRule{f: x}
				byKey[key] = r
				rules = append(rules, r)
			}
			r.n++
			if !slices.Contains(r.addresses, c.Address) {
				r.addresses = append(r.addresses, c.Address)
			}
		}
	}
	if total == 0 && f.Unchanged == 0 && len(f.Unmatched) == 0 && f.Dropped == 0 {
		return ""
	}
	slices.SortStableFunc(rules, func(a, b *findingRule) int {
		return cmp.Or(cmp.Compare(b.f.Severity, a.f.Severity), cmp.Compare(b.n, a.n))
	})
	var b strings.Builder
	if total > 0 {
		fmt.Fprintf(&b, "#### Findings on this plan's changes: %s\n\n", SeverityCounts(f.BySeverity()))
	} else {
		b.WriteString("#### Findings\n\nNone on the changes this plan makes.\n\n")
	}
	for i, r := range rules {
		if i == maxFindingRules {
			fmt.Fprintf(&b, "- … and %s more\n", words.Count(len(rules)-i, "rule"))
			break
		}
		b.WriteString(r.line(m) + "\n")
	}
	b.WriteString("\n")
	var folded []string
	if f.Unchanged > 0 {
		folded = append(folded, words.Count(f.Unchanged, "finding")+" on resources this plan leaves alone")
	}
	if n := len(f.Unmatched); n > 0 {
		folded = append(folded, words.Count(n, "finding")+" on no resource of this plan")
	}
	if f.Dropped > 0 {
		folded = append(folded, fmt.Sprintf("%s past the %d read from one report", words.Count(f.Dropped, "finding"), findings.MaxFindings))
	}
	if len(folded) > 0 {
		var body strings.Builder
		for i, x := range f.Unmatched {
			if i == maxFindingRules {
				fmt.Fprintf(&body, "- … and %d more\n", len(f.Unmatched)-i)
				break
			}
			body.WriteString(findingLine(x, m))
			if x.File != "" {
				where := x.File
				if x.Line > 0 {
					where = fmt.Sprintf("%s:%d", x.File, x.Line)
				}
				body.WriteString(" at " + safeCode(m, where))
			}
			body.WriteString("\n")
		}
		if body.Len() == 0 {
			body.WriteString("Not listed: they are about what this plan does not change.\n")
		}
		b.WriteString(md.Details(strings.Join(folded, "; "), body.String()))
	}
	for _, p := range f.Problems[:min(len(f.Problems), 3)] {
		b.WriteString("> " + safeText(m, "Configuration not read: "+p) + "\n")
	}
	b.WriteString("\n")
	return b.String()
}

// line is a rule's line: its finding, then the resources it is on.
func (r *findingRule) line(m *mask.Masker) string {
	addrs := make([]string, 0, min(len(r.addresses), maxFindingAddresses))
	for _, a := range r.addresses[:min(len(r.addresses), maxFindingAddresses)] {
		addrs = append(addrs, safeCode(m, a))
	}
	on := strings.Join(addrs, ", ")
	if more := len(r.addresses) - len(addrs); more > 0 {
		on += fmt.Sprintf(" and %d more", more)
	}
	f := r.f
	switch {
	case len(r.addresses) < 2:
	case f.RuleText != "":
		f.Message = f.RuleText // the first finding's message would name its resource alone
	case f.Address != "" && strings.Contains(f.Message, f.Address):
		f.Message = strings.Replace(f.Message, f.Address, "…", 1) // each of those named after it
	}
	return findingLine(f, m) + " — on " + on
}

// findingLine is a finding's severity, rule (linked to its help when the
// report gives a web address for it), message and tool.
func findingLine(f findings.Finding, m *mask.Masker) string {
	rule := safeCode(m, cmp.Or(f.RuleID, "(no rule)"))
	if u := helpLink(f.HelpURI); u != "" {
		rule = "[" + rule + "](" + u + ")"
	}
	line := fmt.Sprintf("- %s **%s** %s", severityMark(f.Severity), f.Severity, rule)
	if f.Denied {
		line = "- ⛔ **denied** " + rule
	}
	if msg := strings.TrimSpace(f.Message); msg != "" {
		line += ": " + safeText(m, firstLine(msg, 300))
	}
	if f.Tool != "" {
		line += " (" + safeText(m, firstLine(f.Tool, 60)) + ")"
	}
	return line
}

// helpLink is a rule's help address fit for a Markdown link: http(s)
// with a host, its characters that could end the link escaped; "" for
// anything else.
func helpLink(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || len(s) > 2000 {
		return ""
	}
	return strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E", "[", "%5B", "]", "%5D", "\"", "%22", "`", "%60").Replace(u.String())
}

func severityMark(s findings.Severity) string {
	switch s {
	case findings.Critical, findings.High:
		return "🔴"
	case findings.Medium:
		return "🟠"
	case findings.Low:
		return "🟡"
	}
	return "⚪"
}

func firstLine(s string, max int) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// SeverityCounts says findings' counts, the most severe first: "2 high,
// 1 medium".
func SeverityCounts(by map[findings.Severity]int) string {
	var parts []string
	for sev := findings.Critical; sev >= findings.Info; sev-- {
		if n := by[sev]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, sev))
		}
	}
	return strings.Join(parts, ", ")
}

// maxResourceFindings is the most findings listed inside one resource's
// diff; the rest are counted (the findings part has them all by rule).
const maxResourceFindings = 5

// findingsBadge follows a resource's summary line when scanners found
// something on it: " · 🔴 2 findings (1 high)", its worst first.
func findingsBadge(fs []findings.Finding) string {
	if len(fs) == 0 {
		return ""
	}
	worst := findings.Info
	by := map[findings.Severity]int{}
	for _, f := range fs {
		worst = max(worst, f.Severity)
		by[f.Severity]++
	}
	return fmt.Sprintf(" · %s %s (%s)", severityMark(worst), words.Count(len(fs), "finding"), SeverityCounts(by))
}

// resourceFindings are a resource's findings, above its diff.
func resourceFindings(fs []findings.Finding, m *mask.Masker) string {
	var b strings.Builder
	sorted := slices.Clone(fs)
	slices.SortStableFunc(sorted, func(a, b findings.Finding) int { return cmp.Compare(b.Severity, a.Severity) })
	for i, f := range sorted {
		if i == maxResourceFindings {
			fmt.Fprintf(&b, "- … and %d more\n", len(sorted)-i)
			break
		}
		b.WriteString(findingLine(f, m))
		if f.File != "" && f.Line > 0 {
			b.WriteString(" at " + safeCode(m, fmt.Sprintf("%s:%d", f.File, f.Line)))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	return b.String()
}

// costLines say, under the title, what Infracost says each root's plan
// does to the monthly bill: "**Monthly cost:** +1,361.31 USD (0.00 →
// 1,361.31 USD)", the root named when there are several.
func costLines(sections []*planSection, m *mask.Masker) string {
	var b strings.Builder
	for _, s := range sections {
		c := s.Cost
		if c == nil {
			continue
		}
		label := "**Monthly cost:**"
		if len(sections) > 1 {
			label = "**Monthly cost** of " + safeCode(m, s.Name) + ":"
		}
		line := label + " " + md.Text(findings.Money(c.Delta, c.Currency, true))
		if c.Past != nil {
			line += " (" + md.Text(findings.Money(c.Past, "", false)+" → "+findings.Money(c.Now, c.Currency, false))
			if p := findings.Percent(c.Delta, c.Past); p != "" {
				line += ", " + p
			}
			line += ")"
		}
		b.WriteString(line + "\n\n")
	}
	return b.String()
}
