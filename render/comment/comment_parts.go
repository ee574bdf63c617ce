package comment

import (
	"fmt"
	"github.com/planpr/planpr/render/tofujson/uistream"
	"regexp"
	"slices"
	"strings"

	"github.com/planpr/planpr/flavor"

	"github.com/planpr/planpr/render/review"
	txt "github.com/planpr/planpr/render/text"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/fingerprint"
	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/internal/later"
	"github.com/planpr/planpr/render/internal/words"
	"github.com/planpr/planpr/render/lockreport"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/streamreport"
)

// assemble builds the whole comment at one level of detail, with a
// warning box of at most boxLines lines.
func assemble(sections []*planSection, o CommentOptions, res *CommentResult, level Level, boxLines int, m *mask.Masker) string {
	if level == LevelReduced {
		return fillBudget(sections, o, res, boxLines, m)
	}
	return assembleOnce(sections, o, res, level, boxLines, m)
}

func assembleOnce(sections []*planSection, o CommentOptions, res *CommentResult, level Level, warnCap int, m *mask.Masker) string {
	res.Masked = res.maskedAt(sections, level)
	var b strings.Builder
	b.Grow(o.MaxSize + o.MaxSize/8) // measured many times over: grown once, not doubled each time
	b.WriteString(o.Marker.String() + "\n")
	heading := title(sections, o, res, m)
	res.Heading = strings.TrimPrefix(heading, "## ")
	b.WriteString(heading + "\n\n")
	b.WriteString(costLines(sections, m))
	b.WriteString(streamreport.ErrorBox(commentErrors(sections, o), m))
	b.WriteString(commentWarnings(sections, o.Locks, o.Missing, warnCap, riskyWhere(sections, o, level), m))
	if note := shortenedNote(sections, o, level); note != "" {
		b.WriteString(note)
	}
	b.WriteString(countsTable(sections, o, m))
	if len(sections) == 1 && len(o.Missing) == 0 {
		sections[0].writeBody(&b, level, m)
	} else {
		b.WriteString(rootSections(sections, level, m))
	}
	if len(o.Locks) > 0 {
		section := lockreport.Section(o.Locks, false, m)
		if level < LevelSummary || len(section) < o.MaxSize/4 {
			b.WriteString(section)
		} else {
			b.WriteString("### Lock file changes\n\nLeft out to fit; the alerts and warnings are listed above.\n\n")
		}
	}
	b.WriteString(footer(sections, o, res, m))
	return md.CollapseBlankLines(b.String())
}

func title(sections []*planSection, o CommentOptions, res *CommentResult, m *mask.Masker) string {
	t := o.Title
	if t == "" {
		t = "planpr"
	}
	icon := "✅"
	switch {
	case res.Errored:
		icon = "❌"
	case res.Counts.Destroy > 0 || res.LockAlert || lockWarnings(o.Locks) || slices.ContainsFunc(sections, func(s *planSection) bool { return s.failedCount > 0 }):
		icon = "⚠️"
	}
	if len(sections) == 0 && len(o.Missing) > 0 { // every root expected, none arrived
		return fmt.Sprintf("## ❌ %s: Plan failed; %s sent no plan", safeText(m, t), words.Count(len(o.Missing), "root"))
	}
	if len(sections) == 0 { // a lock-only comment
		var parts []string
		for _, fd := range o.Locks {
			parts = append(parts, lockreport.Summary(fd))
		}
		return fmt.Sprintf("## %s %s: %s", icon, safeText(m, t), safeText(m, strings.Join(parts, "; ")))
	}
	text := countsText(res.Counts, res.HasChange)
	if res.HasChange && !res.Counts.Any() { // no resource changes: what changes, said
		outputs := 0
		for _, s := range sections {
			if s.Path != "" {
				outputs += len(s.ChangedOutputs())
			}
		}
		if outputs > 0 {
			text = "no resource changes, " + words.Count(outputs, "output") + " to change"
		}
	}
	if applied, ok := appliedText(sections); ok {
		text = applied                       // done, in the past tense: what the apply did
		if strings.HasSuffix(t, "applied") { // "planpr · prod · applied" says it already
			text = strings.TrimPrefix(text, "Applied: ")
		}
	}
	if res.failure != review.NoFailure {
		text = outcomeText(sections, res.Counts) // what happened first
	}
	var deferred, actions int
	for _, s := range sections {
		deferred += len(s.Scan.Plan.DeferredChanges)
		actions += len(s.Scan.Plan.ActionInvocations)
	}
	if actions > 0 {
		text = strings.Replace(text, "no changes", "no resource changes", 1) + fmt.Sprintf(", %d %s to invoke", actions, words.Plural(actions, "action"))
	}
	if n := lockAlertCount(o.Locks); n > 0 {
		text += "; " + words.Count(n, "lock-file alert")
	}
	if deferred > 0 {
		text = strings.Replace(text, "no changes", "no current changes", 1) + fmt.Sprintf(", %d deferred to a later plan", deferred)
		if icon == "✅" {
			icon = "⏳"
		}
	}
	return fmt.Sprintf("## %s %s: %s", icon, safeText(m, t), text)
}

// appliedText is the title of a comment of finished applies (each
// stream's own summary, an apply's or a destroy's): what they did, in the
// past tense, as the tools' "Apply complete!" line says it.
func appliedText(sections []*planSection) (string, bool) {
	var sum uistream.ChangeSummary
	found := false
	for _, s := range sections {
		if s.Path != "" {
			return "", false // a plan beside: its counts are what will be done
		}
		for _, st := range s.Streams {
			c := st.Changes
			if c == nil || (c.Operation != "apply" && c.Operation != "destroy") {
				continue
			}
			found = true
			sum.Add, sum.Change, sum.Remove, sum.Import = sum.Add+c.Add, sum.Change+c.Change, sum.Remove+c.Remove, sum.Import+c.Import
		}
	}
	if !found {
		return "", false
	}
	text := fmt.Sprintf("Applied: %d added, %d changed, %d destroyed", sum.Add, sum.Change, sum.Remove)
	if sum.Import > 0 {
		text = fmt.Sprintf("Applied: %d imported, %d added, %d changed, %d destroyed", sum.Import, sum.Add, sum.Change, sum.Remove)
	}
	return text, true
}

// outcomeText is a failed comment's title: what failed, then the counts
// where they mean something (a plan that failed plans nothing).
func outcomeText(sections []*planSection, c review.Counts) string {
	var streams []*review.StreamSummary
	planFailed := false
	for _, s := range sections {
		streams = append(streams, s.Streams...)
		planFailed = planFailed || s.Failure() == review.PlanFailed
	}
	text := review.Outcome(streams)
	if planFailed || text == "" {
		text = strings.TrimSuffix("Plan failed; "+text, "; ")
	}
	if c.Any() && !planFailed {
		text += " (" + c.String() + ")"
	}
	return text
}

// sectionText is a root's heading in a comment of several: its outcome
// first when something failed, else its counts.
func sectionText(s *planSection) string {
	if s.Failure() != review.NoFailure {
		return outcomeText([]*planSection{s}, s.Total)
	}
	return countsText(s.Total, s.hasChanges())
}

// countsText is the plan's counts in OpenTofu's words.
func countsText(c review.Counts, changes bool) string {
	if !changes {
		return "no changes"
	}
	return c.String()
}

// maxPlanRows bounds the plans of one comment listed in its table (and,
// when it is shortened to its summary, given a section).
const maxPlanRows = 100

// riskyLine is the warning for a destroyed or replaced change, or for
// count of them grouped under c's address.
func riskyLine(c review.ChangeSummary, s *planSection, named bool, m *mask.Masker, count int) string {
	where := ""
	if named {
		where = " in " + safeText(m, s.Name)
	}
	var what, why string
	switch c.Action {
	case diff.Delete:
		what = "will be **destroyed**"
		why = review.DeleteWhy(c.Reason)
	default:
		what = "will be **replaced**"
		why = replaceWhy(c, m)
	}
	line := fmt.Sprintf("%s %s%s", safeCode(m, c.Address), what, where)
	if count > 1 {
		line = fmt.Sprintf("%s (%d) %s%s", safeCode(m, c.Address), count, what, where)
	}
	if why != "" {
		line += ": " + why
	}
	return line
}

// commentErrors are the errors of every section's streams, each linked
// to its root module's files at the commit.
func commentErrors(sections []*planSection, o CommentOptions) []streamreport.Located {
	var errs []streamreport.Located
	for _, s := range sections {
		where := ""
		if len(sections) > 1 {
			where = s.Name
		}
		errs = append(errs, streamreport.Errors(s.Streams, streamreport.Source{BlobURL: o.SourceURL, Root: s.Root}, where)...)
	}
	return errs
}

// streamChange is a UI stream's planned destroy or replacement as a
// change.
func streamChange(it review.StreamItem) review.ChangeSummary {
	c := review.ChangeSummary{Address: it.Address, Reason: it.Reason, Action: diff.DeleteThenCreate}
	if it.Action == "delete" {
		c.Action = diff.Delete
	}
	return c
}

func replaceWhy(c review.ChangeSummary, m *mask.Masker) string {
	if why := review.ReplaceWhy(c.Reason); why != "" {
		return why
	}
	var attrs []string
	for _, p := range c.ReplacePaths {
		attrs = append(attrs, safeCode(m, review.MaskedPath(m, p)))
	}
	if len(attrs) == 0 {
		return "it cannot be updated in place"
	}
	if len(attrs) == 1 {
		return attrs[0] + " forces replacement"
	}
	return strings.Join(attrs, ", ") + " force replacement"
}

func shortenedNote(sections []*planSection, o CommentOptions, level Level) string {
	if level == LevelFull {
		return ""
	}
	left := omitted(sections, level)
	where := o.fullText()
	var what []string
	if level == LevelSummary {
		what = append(what, "every diff is left out")
	}
	for _, s := range sections {
		if level == LevelReduced && slices.ContainsFunc(s.picked, func(g *diffGroup) bool { return g.Count > 1 }) {
			what = append(what, "one diff stands for each group of changes alike")
			break
		}
	}
	if level == LevelReduced && left > 0 {
		hidden := 0
		for _, s := range sections {
			hidden += hiddenCount(s.listed)
		}
		if named := left - hidden; named > 0 {
			what = append(what, words.Count(named, "change")+" "+words.IsAre(named)+" listed without a diff")
		}
		if hidden > 0 {
			what = append(what, words.Count(hidden, "change")+" "+words.IsAre(hidden)+" counted but not named")
		}
	}
	if level == LevelReduced && slices.ContainsFunc(sections, func(s *planSection) bool { return s.outputsHidden }) {
		what = append(what, "output changes are left out or shown in part")
	}
	if len(what) == 0 {
		what = append(what, "parts are left out")
	}
	return fmt.Sprintf("> [!NOTE]\n> Shortened to fit %s: %s. The full plan is in %s.\n\n", limitText(o.MaxSize), strings.Join(what, "; "), where)
}

var actionRows = []struct {
	action diff.Action
	label  string
}{
	{diff.Create, "create"},
	{diff.Update, "update in-place"},
	{diff.Delete, "destroy"},
	{diff.DeleteThenCreate, "replace (destroy, then create)"},
	{diff.CreateThenDelete, "replace (create, then destroy)"},
	{diff.ForgetThenCreate, "replace (forget, then create)"},
	{diff.CreateThenForget, "replace (create, then forget)"},
	{diff.Read, "read"},
	{diff.Forget, "forget"},
}

// countsTable summarises the actions: one row per action for one plan, or
// one row per plan.
func countsTable(sections []*planSection, o CommentOptions, m *mask.Masker) string {
	var b strings.Builder
	if len(sections) == 0 && len(o.Missing) == 0 {
		return ""
	}
	if len(sections) == 1 && len(o.Missing) == 0 {
		s := sections[0]
		rows := 0
		for _, r := range actionRows {
			if n := s.Counts[r.action]; n > 0 {
				if rows == 0 {
					b.WriteString("| | action | resources |\n| --- | --- | ---: |\n")
				}
				rows++
				fmt.Fprintf(&b, "| `%s` | %s | %d |\n", strings.TrimSpace(txt.Symbol(r.action)), r.label, n)
			}
		}
		if moves := s.movesAndImports(); moves != "" {
			if rows == 0 {
				b.WriteString("| | action | resources |\n| --- | --- | ---: |\n")
			}
			b.WriteString(moves)
			rows++
		}
		if rows > 0 {
			b.WriteString("\n")
		}
		return b.String()
	}
	return rootsTable(sections, o, m)
}

func (s *planSection) movesAndImports() string {
	moved, imported := s.Scan.Stats.Moved, s.Scan.Stats.Imported
	var b strings.Builder
	if moved > 0 {
		fmt.Fprintf(&b, "| | move | %d |\n", moved)
	}
	if imported > 0 {
		fmt.Fprintf(&b, "| | import | %d |\n", imported)
	}
	return b.String()
}

// writeBody writes a plan's resource diffs, drift and outputs at a
// level to the comment being assembled (not to a builder of its own: a
// comment is assembled many times over while it is fitted to its budget).
func (s *planSection) writeBody(b *strings.Builder, level Level, m *mask.Masker) {
	b.WriteString(s.findingsPart(m)) // at every size: what a scanner says of the change comes first
	switch level {
	case LevelFull:
		b.WriteString(s.b().full.String())
	case LevelReduced:
		for _, g := range s.picked {
			b.WriteString(g.rep.LaidOut)
			if line := s.someAlike[g]; line != "" {
				b.WriteString(line)
			} else {
				b.WriteString(alikeLine(g, s.exactAlike[g], m))
			}
		}
		if n := listedCount(s.listed); n > 0 {
			fmt.Fprintf(b, "<details><summary>%s without a diff shown</summary>\n\n", words.Count(n, "change"))
			for _, g := range s.listed {
				b.WriteString(g.line(m))
			}
			if hidden := hiddenCount(s.listed); hidden > 0 {
				fmt.Fprintf(b, "- … and %s, all in %s\n", words.Count(hidden, "more change"), s.fullText)
			}
			b.WriteString("\n</details>\n\n")
		}
	}
	if len(s.drift) > 0 {
		fmt.Fprintf(b, "#### Changed outside %s (%d)\n\n", s.Scan.Flavor.Product(), len(s.drift))
		if level == LevelFull {
			for _, e := range s.drift {
				b.WriteString(md.Details(safeHTML(m, e.Address)+" changed outside "+s.Scan.Flavor.Product(), md.DiffBlock(e.Text)))
			}
		} else if level == LevelReduced && !s.driftHidden {
			b.WriteString(s.driftList(m))
		}
	}
	b.WriteString(later.Parts(s.Scan.Plan, level == LevelSummary, m))
	switch {
	case s.outputs != "" && level == LevelReduced && s.outputsCut != "":
		b.WriteString(s.outputsCut)
	case s.outputs != "" && level == LevelReduced && s.outputsHidden:
		b.WriteString(outputsLeftOut)
	case s.outputs != "" && level < LevelSummary:
		b.WriteString("#### Changes to outputs\n\n" + md.DiffBlock(s.outputs) + "\n")
	}
	if level < LevelSummary {
		b.WriteString(s.streamFull)
	} else {
		b.WriteString(s.streamCompact)
	}
}

// driftList names the resources changed outside the tool, grouped as
// the changes are (see listedGroup), exactly while that stays short.
func (s *planSection) driftList(m *mask.Masker) string {
	if s.driftNames == nil {
		list := s.makeDriftList(m)
		s.driftNames = &list
	}
	return *s.driftNames
}

func (s *planSection) makeDriftList(m *mask.Masker) string {
	var gs review.Groups
	for _, e := range s.drift {
		gs.Add("", review.ChangeSummary{Address: e.Address})
	}
	line := func(g *review.ChangeGroup, names string) string {
		if g.Count > 1 {
			return fmt.Sprintf("- %s (%d)\n", names, g.Count)
		}
		return "- " + names + "\n"
	}
	exacts, lines, size := make([]string, len(gs.List)), make([]string, len(gs.List)), 0 // naming exactly, in one pattern
	for i, g := range gs.List {
		exacts[i], lines[i] = line(g, memberNames(&g.Members, true, m)), line(g, memberNames(&g.Members, false, m))
		size += len(lines[i])
	}
	if all := strings.Join(exacts, ""); len(all) <= maxDriftList {
		return all + "\n"
	}
	for i, g := range gs.List { // too many: the first groups exactly or in part, while room lasts
		room := maxDriftList - size + len(lines[i])
		named := exacts[i]
		if len(named) > room {
			named = line(g, someNames(&g.Members, room-len(line(g, "")), m))
		}
		if len(named) <= room && len(named) > len(line(g, "")) {
			size += len(named) - len(lines[i])
			lines[i] = named
		}
	}
	return strings.Join(lines, "") + "\n"
}

// maxDriftList is the most a shortened comment spends on naming exactly
// what changed outside the tool.
const maxDriftList = 2000

func footer(sections []*planSection, o CommentOptions, res *CommentResult, m *mask.Masker) string {
	var parts []string
	v := o.Version
	if v == "" {
		v = "dev"
	}
	parts = append(parts, "planpr "+md.Text(v))
	if sha := o.Marker.SHA; sha != "" {
		parts = append(parts, "commit "+md.Code(shortSHA(sha)))
	}
	if fp := o.Fingerprint; fp != "" {
		parts = append(parts, "plan "+md.Code(fingerprint.Short(fp)))
	}
	if u := o.RunURL; strings.HasPrefix(u, "https://") && !strings.ContainsAny(u, " ()<>\"'\n") {
		parts = append(parts, "[run]("+u+")")
	}
	if u := o.CheckURL; o.Check != "" && strings.HasPrefix(u, "https://") && !strings.ContainsAny(u, " ()<>\"'\n") {
		parts = append(parts, "[check "+md.Code(o.Check)+"]("+u+")")
	}
	if res.Masked > 0 {
		parts = append(parts, words.Count(res.Masked, "sensitive value")+" masked")
	}
	unknown := false
	several := map[string]int{} // a file of several plans: how many, said once
	for _, s := range sections {
		if p := partOf.FindStringSubmatch(s.Source); s.Path != "" && p != nil {
			several[p[1]]++
		}
	}
	said := map[string]bool{}
	for _, s := range sections {
		if s.Path != "" {
			source := s.Source
			if p := partOf.FindStringSubmatch(s.Source); p != nil {
				if said[p[1]] {
					continue
				}
				said[p[1]] = true
				source = p[1] // the file, once, with how many plans it holds
			}
			src := safeText(m, streamreport.DisplayPath(source))
			var about []string
			if n := several[source]; n > 1 {
				about = append(about, fmt.Sprintf("%d plans", n))
			}
			if tv := s.Scan.Plan.TerraformVersion; tv != "" {
				about = append(about, toolName(s.Scan.Flavor)+" "+md.Text(tv))
			}
			if len(about) > 0 {
				src += " (" + strings.Join(about, ", ") + ")"
			}
			parts = append(parts, src)
			unknown = unknown || s.Scan.Flavor == flavor.Unknown
		}
		for _, st := range s.Streams {
			parts = append(parts, safeText(m, streamreport.NameBeside(s.Path, s.Source, s.Root, st.Path)))
		}
	}
	if unknown {
		parts = append(parts, "OpenTofu's wording (the plan does not say which tool made it: set `--flavor` or the `flavor` input)")
	}
	if i := slices.IndexFunc(sections, func(s *planSection) bool {
		return s.Path != "" && s.Shown > 0 && o.WithSchemasOf(s.Path).Schemas == nil
	}); i >= 0 {
		// Honest about precision: without the providers' schemas nested
		// blocks are inferred from the values.
		parts = append(parts, sections[i].Scan.Flavor.Say("values as the plan records them (for exact diffs, add `tofu providers schema -json > schemas.json` beside the plan)"))
	}
	return "---\n<sub>" + strings.Join(parts, " · ") + "</sub>\n"
}

// partOf reads the file of a plan that came from a file of several:
// FILE#N.
var partOf = regexp.MustCompile(`^(.*)#[0-9]+$`)

func shortSHA(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}

// toolName names the tool that made a plan, both when it is not known.
func toolName(f flavor.Flavor) string {
	if f == flavor.Unknown {
		return "OpenTofu/Terraform"
	}
	return f.Product()
}

func limitText(max int) string {
	if max == GitHubMaxComment {
		return "GitHub's 65,536-character limit for a comment"
	}
	return fmt.Sprintf("a %d-character limit", max)
}

// lockAlertCount counts the lock files' alerts, as the title says them.
func lockAlertCount(files []*lockdiff.FileDiff) int {
	n := 0
	for _, fd := range files {
		n += fd.Alerts()
	}
	return n
}

func lockWarnings(files []*lockdiff.FileDiff) bool {
	return slices.ContainsFunc(files, func(fd *lockdiff.FileDiff) bool { return fd.MaxSeverity().Rank() >= lockdiff.Warning.Rank() })
}
