package comment

import (
	"cmp"
	"context"
	"github.com/planpr/planpr/render/findings"
	"github.com/planpr/planpr/render/inputs"
	"html"
	"io"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/planpr/planpr/render/review"
	txt "github.com/planpr/planpr/render/text"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/internal/budget"
	"github.com/planpr/planpr/render/internal/chunks"
	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/internal/shape"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/streamreport"
	"github.com/planpr/planpr/render/summary"
	"github.com/planpr/planpr/render/tofujson"
)

// GitHubMaxComment is the longest body GitHub accepts for a comment.
const GitHubMaxComment = 65536

// CommentPlan is one root module's part of a comment, titled by Name (or
// its directory).
type CommentPlan = inputs.Root

// CommentOptions shape the comment.
type CommentOptions struct {
	review.PlanOptions
	Marker Marker // the hidden first line: the key, and the comment's order
	Title  string
	// MaxSize bounds the comment in characters, as GitHub counts them
	// (GitHubMaxComment when 0); MaxBytes, when set, in bytes too (a job
	// summary's limit is in bytes).
	MaxSize  int
	MaxBytes int
	Version  string
	// FullText says where the unshortened text is, e.g. "the job summary".
	FullText string
	Locks    []*lockdiff.FileDiff
	// RunURL links the run that made the comment, in its footer (with the
	// marker's SHA), so that a comment left by an older run tells its age.
	RunURL string
	// SourceURL is the repository's files at the commit the comment is
	// about (https://github.com/OWNER/REPO/blob/SHA): errors link their
	// lines there.
	SourceURL string
	// Missing are the roots a comment of several expected and got no plan
	// or stream for (a matrix job that failed or was cancelled): each is a
	// failed row, never silently absent.
	Missing []MissingRoot
	// Fingerprint is what the plans will do (package fingerprint), set by
	// the runner that keeps the comment: the footer shows it short, the
	// marker and the machine summary in full.
	Fingerprint string
	// Check names the key's check run and CheckURL where it is shown (the
	// pull request's checks): the footer links it.
	Check, CheckURL string
	// Summary, when set (on the first of Comments' options), receives the
	// plans' machine summary (as Summary writes it) from the same read.
	Summary io.Writer
}

// Level is how far a comment had to be shortened to fit.
type Level int

const (
	LevelFull    Level = iota // every diff
	LevelReduced              // diffs of destroyed and replaced resources, the rest listed
	LevelSummary              // title, warnings, tables and lock alerts only
)

// CommentResult describes the comment written.
type CommentResult struct {
	// Heading is the comment's title line, as Markdown, without its "## ":
	// a check run's title.
	Heading string
	Size    int
	Level   Level
	Omitted int // resource diffs left out
	Masked  int
	Counts  review.Counts
	Replace int
	Drift   int // resources changed outside the tool
	// Annotations are the located problems a check run marks (see
	// annotations).
	Annotations []streamreport.Annotation
	Errored     bool
	HasChange   bool
	LockAlert   bool
	// Findings counts the scanners' findings on the changes shown, by
	// severity (findings.Severity).
	Findings [findings.Critical + 1]int
	// CostUp and CostUpPct are the largest monthly increase of a root
	// Infracost priced: the amount, and the percentage of its cost before
	// (exact decimals; "" when none; CostFromNothing when it cost nothing
	// before).
	CostUp, CostUpPct string
	// Denied counts the policy engines' denials.
	Denied  int
	failure review.Failure // the worst of the sections
	// maskedOutside is what was masked outside the diffs (see maskedAt).
	maskedOutside int
}

// CostFromNothing is CostUpPct of a root that cost nothing before.
const CostFromNothing = "new"

// maskedAt counts the values masked in a comment at level: outside the
// diffs, and in the diffs the level shows.
func (r *CommentResult) maskedAt(sections []*planSection, level Level) int {
	n := r.maskedOutside
	for _, s := range sections {
		switch level {
		case LevelFull:
			n += s.b().masked + s.b().marked
		case LevelReduced:
			for _, g := range s.picked {
				n += g.rep.Masks() + g.rep.Marked
			}
		}
	}
	return n
}

// diffBudget is one comment size's share of a section's diffs.
type diffBudget struct {
	full   budget.Buffer // every resource's diff, while they fit
	masked int           // values the masker hid in them (as laid out)
	marked int           // values the plan marked sensitive in them
}

// fullRoom reports whether the budget can still take every diff.
func (b *diffBudget) fullRoom() bool { return b.full.Limit > 0 && !b.full.Overflow }

// b is the budget of the comment being assembled.
func (s *planSection) b() *diffBudget { return &s.budgets[s.cur] }

// planSection is everything the comment needs from one plan.
type planSection struct {
	*review.Module
	// budgets holds the diffs for each comment size asked for (see
	// Comments), cur the one being assembled.
	budgets []diffBudget
	cur     int
	// changes are the changes shown, in plan order; groups gathers the
	// alike ones (see groupChanges), the largest first; reps are the
	// diffs of the groups' first members a shortened comment can show
	// (see renderReps), in the order it would pick them.
	changes chunks.List[shownChange]
	groups  []*diffGroup
	reps    []*diffGroup
	// A shortened comment's choices: the groups whose diff it shows (see
	// pickDiffs), the changes it lists, and what it names exactly (see
	// refine).
	picked     []*diffGroup
	listed     []*listedGroup
	exactAlike map[*diffGroup]bool
	someAlike  map[*diffGroup]string // alike lines naming some members (see nameSomeAlike)
	// coarse holds the listed groups of destroyed or replaced changes
	// the budget could only name in one pattern (see listedGroup.key).
	coarse map[string]bool
	// unnamed holds those the budget could not name at all: more
	// destroyed resources of distinct types than a comment holds.
	unnamed map[string]bool
	// listAll says that every change is named, in one pattern at least;
	// outputsHidden that the output diff is left out to fit.
	listAll, outputsHidden, driftHidden bool
	outputsCut                          string // hidden outputs' first changes, shown last (see showSomeOutputs)
	// fullText is where a shortened comment sends the reader for what it
	// only counts.
	fullText    string
	drift       []txt.DriftEntry
	driftNames  *string              // driftList's, once made
	findingsMD  *string              // findingsPart's, once made
	rendering   chan renderedOutputs // the outputs and drift, rendered beside the grouping
	patterns    review.Patterns      // of the changes' addresses
	buckets     []*listBucket        // see listing
	outputs     string
	failed      []string // failed checks, the first maxWarningsOfAKind
	failedCount int
	// The streams' part of the comment, in full and with failures only.
	streamFull, streamCompact string
	streamWarn                []string
	streamsUnnamed            bool // some stream's list has no room for all its planned changes
	diffMasks                 int  // what the masker hid in the diffs, each counted once
}

// Comment writes the pull-request comment for the plans (and lock-file
// diffs): never longer than MaxSize, shortened in steps when needed, with
// every secret it knows of masked.
func Comment(w io.Writer, plans []CommentPlan, o CommentOptions) (*CommentResult, error) {
	return CommentContext(context.Background(), w, plans, o)
}

// CommentContext is Comment stopped by ctx: a job whose time is up stops
// reading and rendering, and the error is ctx's.
func CommentContext(ctx context.Context, w io.Writer, plans []CommentPlan, o CommentOptions) (*CommentResult, error) {
	res, err := CommentsContext(ctx, []io.Writer{w}, plans, []CommentOptions{o})
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// Comments writes the comment once for each of opts, from one read of the
// plans: the Action's comment and its job summary differ only in their
// limits. ws[i] takes the comment for opts[i], which must differ from
// opts[0] in MaxSize, MaxBytes and FullText only.
func Comments(ws []io.Writer, plans []CommentPlan, opts []CommentOptions) ([]*CommentResult, error) {
	return CommentsContext(context.Background(), ws, plans, opts)
}

// CommentsContext is Comments stopped by ctx.
func CommentsContext(ctx context.Context, ws []io.Writer, plans []CommentPlan, opts []CommentOptions) ([]*CommentResult, error) {
	for i := range opts {
		if opts[i].MaxSize <= 0 {
			opts[i].MaxSize = GitHubMaxComment
		}
		if opts[i].Mode == "" {
			opts[i].Mode = review.ModeNormal
		}
	}
	if opts[0].Files == nil { // the run's files: each opened once, and the parts of a file of several plans
		files := tofujson.NewFiles()
		defer files.Close()
		for i := range opts {
			opts[i].Files = files
		}
	}
	o := opts[0]
	var masker *mask.Masker
	var sections []*planSection
	cleanup, err := review.Splitting(o.Files, plans, func(plans []CommentPlan) error {
		masker, sections = mask.NewMasker(), nil
		for _, p := range plans {
			if err := ctx.Err(); err != nil {
				return err
			}
			s, err := newSection(ctx, p, o, opts, masker)
			if err != nil {
				return err
			}
			sections = append(sections, s)
		}
		return nil
	})
	defer cleanup()
	if err != nil {
		return nil, err
	}
	facts := &CommentResult{}
	marked := 0
	largest := 0
	for _, o := range opts {
		largest = max(largest, o.MaxSize)
	}
	for _, s := range sections {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s.finishDiffs(masker)
		before := masker.Count
		if err := s.renderReps(o, masker, largest); err != nil {
			return nil, err
		}
		s.diffMasks += masker.Count - before
		if err := s.finishOutputs(masker, &marked); err != nil { // rendered meanwhile
			return nil, err
		}
		facts.Counts.Include(s.Total)
		facts.Replace += s.Replaced()
		if f := s.Failure(); f != review.NoFailure {
			facts.Errored = true
			facts.failure = max(facts.failure, f)
		}
		facts.HasChange = facts.HasChange || s.hasChanges()
		facts.Drift += len(s.drift)
		for sev, n := range s.Findings.BySeverity() {
			facts.Findings[sev] += n
		}
		if s.Findings != nil {
			facts.Denied += s.Findings.Denied
		}
		if c := s.Cost; c != nil && c.Delta.Sign() > 0 {
			if up, ok := findings.ParseAmount(facts.CostUp); !ok || c.Delta.Cmp(up) > 0 {
				facts.CostUp = c.Delta.FloatString(2)
			}
			switch {
			case c.Past == nil || c.Past.Sign() == 0:
				facts.CostUpPct = CostFromNothing // any growth from nothing is more than a percentage
			case facts.CostUpPct != CostFromNothing:
				p := new(big.Rat).Quo(c.Delta, c.Past)
				p.Mul(p, big.NewRat(100, 1))
				if up, ok := findings.ParseAmount(facts.CostUpPct); !ok || p.Cmp(up) > 0 {
					facts.CostUpPct = p.FloatString(1)
				}
			}
		}
	}
	for _, fd := range o.Locks {
		facts.LockAlert = facts.LockAlert || fd.MaxSeverity().Rank() >= lockdiff.Alert.Rank()
	}
	if len(o.Missing) > 0 {
		facts.Errored, facts.failure = true, max(facts.failure, review.PlanFailed)
	}
	for i := range opts {
		opts[i].Marker.Destroy, opts[i].Marker.LockAlert = facts.Counts.Destroy, facts.LockAlert
		opts[i].Marker.Fingerprint = opts[i].Fingerprint
	}
	modules := make([]*review.Module, len(sections))
	for i, s := range sections {
		modules[i] = s.Module
	}
	facts.Annotations = streamreport.Annotations(modules, o.Locks, masker)
	// What the masker hid outside the diffs counts for every size; what it
	// hid in a size's diffs, for that size.
	shared := masker.Count
	for _, s := range sections {
		shared -= s.diffMasks
	}
	results := make([]*CommentResult, len(opts))
	for i, o := range opts {
		res := *facts
		res.maskedOutside = marked + shared
		for _, s := range sections {
			s.cur = i
		}
		text := commentText(sections, o, &res, masker)
		res.Size = len(text)
		res.Omitted = omitted(sections, res.Level)
		if _, err := io.WriteString(ws[i], text); err != nil {
			return nil, err
		}
		results[i] = &res
	}
	if o.Summary != nil { // after the comments: masking the summary must not change their counts
		doc := summary.New()
		doc.Fingerprint = o.Fingerprint
		for _, s := range sections {
			if err := doc.Add(s.Module, o.PlanOptions, masker); err != nil {
				return nil, err
			}
		}
		if err := doc.Encode(o.Summary, masker); err != nil {
			return nil, err
		}
	}
	return results, nil
}

// commentText assembles the comment at the most detailed level that fits.
func commentText(sections []*planSection, o CommentOptions, res *CommentResult, masker *mask.Masker) string {
	var text string
	for level := LevelFull; level <= LevelSummary; level++ {
		if level == LevelFull && anyOverflow(sections) {
			continue
		}
		for _, cap := range warningCaps(level) {
			text = assemble(sections, o, res, level, cap, masker)
			if o.fits(text) {
				res.Level = level
				break
			}
		}
		if o.fits(text) {
			break
		}
	}
	if !o.fits(text) { // cannot happen with sane budgets; never post more than allowed
		text = o.cut(text)
	}
	return text
}

func anyOverflow(sections []*planSection) bool {
	for _, s := range sections {
		if s.b().full.Overflow {
			return true
		}
	}
	return false
}

// fits reports whether text is within the comment's limits.
func (o CommentOptions) fits(text string) bool {
	return (o.MaxBytes <= 0 || len(text) <= o.MaxBytes) && (len(text) <= o.MaxSize || utf8.RuneCountInString(text) <= o.MaxSize)
}

// fullText is where a shortened comment sends the reader for what it
// leaves out.
func (o CommentOptions) fullText() string {
	return cmp.Or(o.FullText, "the output of `planpr render --format text`")
}

// cut is md.Cut for the comment's limits.
func (o CommentOptions) cut(text string) string {
	if o.MaxBytes > 0 {
		text = md.Cut(text, o.MaxBytes)
	}
	return md.CutRunes(text, o.MaxSize)
}

// warningCaps are the sizes of the warning box to try at a level.
func warningCaps(l Level) []int {
	if l < LevelSummary {
		return []int{maxBoxLines}
	}
	return []int{maxBoxLines, 10, 3, 0}
}

// newSection reads one root module's plan and streams in one pass,
// rendering the resources that can fit the budget as it goes.
func newSection(ctx context.Context, p CommentPlan, o CommentOptions, sizes []CommentOptions, masker *mask.Masker) (*planSection, error) {
	s := &planSection{budgets: make([]diffBudget, len(sizes))}
	for i, size := range sizes {
		s.budgets[i].full.Limit = size.MaxSize
	}
	o.PlanOptions = o.ForInput(p.Path)
	shapes := shape.NewQueue[shapeBucket]()
	m, err := review.ReadModule(p, o.PlanOptions, review.ScanOptions{Masker: masker, Each: s.renderChange(o, shapes), Done: ctx.Done(), Err: ctx.Err,
		KeepAll: o.Summary != nil, Beside: true})
	shaped, werr := shapes.Wait()
	if err == nil {
		err = werr
	}
	if err != nil {
		return nil, err
	}
	s.Module = m
	s.rendering = s.renderOutputs(o)
	s.groupChanges(shaped)
	return s, nil
}

// renderedOutputs are a plan's outputs and drift as text, not yet masked.
type renderedOutputs struct {
	outputs string
	drift   []txt.DriftEntry
	err     error
}

// renderOutputs renders the plan's outputs and drift on a goroutine of
// their own, once its read is done: they depend on nothing else, and the
// comment has work to do meanwhile (grouping, the groups' diffs). A
// section with no plan has neither (finishOutputs reads nothing then).
func (s *planSection) renderOutputs(o CommentOptions) chan renderedOutputs {
	if s.Path == "" {
		return nil
	}
	done := make(chan renderedOutputs, 1)
	go func() {
		p, o := s.Scan.Plan, o.PlanOptions
		o.Flavor = s.Scan.Flavor
		r := renderedOutputs{outputs: txt.OutputsText(p.OutputChanges, o.Flavor)}
		if s.Scan.HasDrift {
			r.drift, r.err = txt.DriftEntries(o, s.Scan, r.outputs != "", review.IndexConfiguration(p.Configuration))
		}
		done <- r
	}()
	return done
}

// renderChange notes each shown change (its shape worked out beside the
// read, by shapes) and renders its diff while every diff still fits some
// size. The values of the others are never decoded here.
func (s *planSection) renderChange(o CommentOptions, shapes *shape.Queue[shapeBucket]) func(*tofujson.ResourceChange, review.ChangeSummary) error {
	config := (*review.ConfigIndex)(nil)
	return func(rc *tofujson.ResourceChange, c review.ChangeSummary) error {
		if !c.Shown() {
			return nil
		}
		at := c.Split()                 // the read's, made beside the shaper
		c.ReplacePaths, c.At = nil, nil // the warnings have them; not needed again
		shown := s.changes.Add(shownChange{ChangeSummary: c, span: rc.Span, pattern: s.patterns.Add(at), indexes: at.Indexes})
		shapes.Add(rc, at.Keys(), shapeBucket{shown.listKey(), c.Reason})
		if !s.fullRoom() {
			return nil
		}
		if config == nil && o.Schemas == nil {
			config = &review.ConfigIndex{} // the configuration comes after the changes; infer from values
		}
		it, err := newDiffItem(rc, c, o, config)
		if it == nil || err != nil {
			return err
		}
		shown.item = it
		estimate := budget.Estimate(it.Text, c.Address) + 200*min(len(c.Findings), maxResourceFindings+1)
		for i := range s.budgets {
			if b := &s.budgets[i]; b.fullRoom() && b.full.Add(it, estimate) {
				b.marked += it.Marked
			}
		}
		return nil
	}
}

// newDiffItem renders a change's diff (nil when it shows nothing).
func newDiffItem(rc *tofujson.ResourceChange, c review.ChangeSummary, o CommentOptions, config *review.ConfigIndex) (*budget.Item, error) {
	if err := rc.Change.Decode(); err != nil {
		return nil, err
	}
	block, err := o.SchemaFor(rc, config)
	if err != nil {
		return nil, err
	}
	text := txt.ResourceText(rc, c.Action, diff.For(o.Flavor).ForResource(txt.ShownChange(rc, c.Action, o.Flavor), block, diff.Always()), txt.CauseChange, o.Flavor)
	if text == "" {
		return nil, nil
	}
	it := &budget.Item{Summary: func(m *mask.Masker) string { return summaryLine(c, m) },
		Text: text, Wrap: md.DiffBlock, Marked: strings.Count(text, mask.Masked)}
	if len(c.Findings) > 0 {
		it.Head = func(m *mask.Masker) string { return resourceFindings(c.Findings, m) }
	}
	return it, nil
}

// fullRoom reports whether some size can still take every diff.
func (s *planSection) fullRoom() bool {
	for i := range s.budgets {
		if s.budgets[i].fullRoom() {
			return true
		}
	}
	return false
}

func (s *planSection) hasChanges() bool {
	return s.Shown > 0 || s.outputs != "" || s.Total.Any()
}

// finishDiffs masks the diffs the first pass rendered, and the streams,
// with the secrets of the whole plan.
func (s *planSection) finishDiffs(masker *mask.Masker) {
	before := masker.Count
	for i := range s.budgets {
		s.budgets[i].masked = s.budgets[i].full.Finish(masker)
	}
	s.diffMasks = masker.Count - before
	for _, st := range s.Streams {
		name := streamreport.NameBeside(s.Path, s.Source, s.Root, st.Path) // as the footer names it
		s.streamFull += streamreport.Markdown(st, name, masker, s.Path != "", false)
		s.streamCompact += streamreport.Markdown(st, name, masker, s.Path != "", true)
		s.streamWarn = append(s.streamWarn, streamreport.Warnings(st, masker)...)
		s.streamsUnnamed = s.streamsUnnamed || !streamreport.AllNamed(st.Planned)
	}
}

// finishOutputs masks the outputs, drift (see renderOutputs) and checks,
// counting in marked the values the plan had marked sensitive there.
func (s *planSection) finishOutputs(masker *mask.Masker, marked *int) error {
	if s.Path == "" {
		return nil
	}
	block := func(text string) string {
		*marked += strings.Count(text, mask.Masked)
		return masker.Mask(text)
	}
	rendered := <-s.rendering
	if rendered.err != nil {
		return rendered.err
	}
	if s.outputs = rendered.outputs; s.outputs != "" {
		s.outputs = block(s.outputs)
	}
	for _, e := range rendered.drift {
		e.Text = block(e.Text)
		s.drift = append(s.drift, e)
	}
	checks := s.FailedChecks()
	s.failedCount = len(checks)
	for _, c := range checks[:min(len(checks), maxWarningsOfAKind)] {
		s.failed = append(s.failed, c.String())
	}
	return nil
}

// summaryLine is the one-line description of a resource change, its
// addresses masked.
func summaryLine(c review.ChangeSummary, m *mask.Masker) string {
	mark := ""
	if sym := strings.TrimSpace(txt.Symbol(c.Action)); sym != "" {
		mark = "<code>" + html.EscapeString(sym) + "</code> "
	}
	cost := ""
	if c.Cost != "" {
		cost = " · " + html.EscapeString(c.Cost)
	}
	return mark + safeHTML(m, c.Address) + " " + verb(c, m) + cost + findingsBadge(c.Findings)
}

func verb(c review.ChangeSummary, m *mask.Masker) string {
	switch c.Action {
	case diff.Create:
		return "will be created"
	case diff.Update:
		return "will be updated in-place"
	case diff.Delete:
		return "will be <b>destroyed</b>"
	case diff.DeleteThenCreate:
		return "will be <b>replaced</b> (destroyed, then created)"
	case diff.CreateThenDelete:
		return "will be <b>replaced</b> (created, then destroyed)"
	case diff.ForgetThenCreate, diff.CreateThenForget:
		return "will be replaced (the old object is forgotten, not destroyed)"
	case diff.Read:
		return "will be read during apply"
	case diff.Forget:
		return "will be removed from the state but not destroyed"
	}
	if c.Moved {
		return "has moved from " + safeHTML(m, c.PreviousAddress)
	}
	return "will be imported"
}

// omitted counts the resource diffs a level leaves out.
func omitted(sections []*planSection, level Level) int {
	n := 0
	for _, s := range sections {
		switch level {
		case LevelReduced:
			n += listedCount(s.listed)
		case LevelSummary:
			n += s.Shown
		}
	}
	return n
}
