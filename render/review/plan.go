// Package review owns the facts of one review, read from its inputs for
// every format: the plan's first pass (counts, the changes shown, risky
// changes, drift, checks, the values a later pass reads again), schema
// inference from a plan's configuration, and the results of UI streams.
// It imports the models, the diff and the masker, and no format.
package review

import (
	"fmt"
	"github.com/planpr/planpr/render/findings"
	"slices"
	"strings"

	"github.com/planpr/planpr/flavor"
	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/tofujson"
)

// Mode is how the plan was made; the plan JSON does not record it.
type Mode string

const (
	ModeNormal      Mode = "normal"
	ModeDestroy     Mode = "destroy"
	ModeRefreshOnly Mode = "refresh-only"
)

// ParseMode reads a mode as flags, inputs and manifests give it; "" is
// normal.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case "":
		return ModeNormal, nil
	case ModeNormal, ModeDestroy, ModeRefreshOnly:
		return m, nil
	}
	return "", fmt.Errorf("mode %q: want normal, destroy or refresh-only", s)
}

// PlanOptions say how a plan was made and which schemas describe it.
type PlanOptions struct {
	Mode     Mode
	Targeted bool
	// Schemas from `tofu providers schema -json`; nil renders without
	// them, approximately.
	Schemas     *tofujson.Schemas
	SchemasFile string
	// Flavor is the tool whose words and rules the review follows;
	// Unknown has ForInput detect it from each input.
	Flavor flavor.Flavor
	// flavorDecided says ForInput has run: a file that tells nothing stays
	// Unknown, and is not read again to find that out.
	flavorDecided bool
	// Files are the run's open inputs: every read goes through them, so
	// that each file is opened once. nil opens a file at each read.
	Files *tofujson.Files
	// SchemasOf are the schemas each plan (by its path) came with: the
	// roots of a monorepo each bring their own. A plan not in it takes
	// Schemas.
	SchemasOf map[string]PlanSchemas
}

// PlanSchemas are a plan's provider schemas and the file they came from.
type PlanSchemas struct {
	Schemas *tofujson.Schemas
	File    string
}

// ForInput is o for the plan or state at path: with the schemas it came
// with (SchemasOf), and its Flavor decided — the one given, else the one
// the file tells (which may be Unknown).
func (o PlanOptions) ForInput(path string) PlanOptions {
	o = o.WithSchemasOf(path)
	if o.Flavor == flavor.Unknown && !o.flavorDecided && path != "" {
		o.Flavor = o.Files.DetectFlavor(path)
	}
	o.flavorDecided = true
	return o
}

// WithSchemasOf is o with the schemas the plan at path came with, when it
// came with its own (SchemasOf).
func (o PlanOptions) WithSchemasOf(path string) PlanOptions {
	if s, ok := o.SchemasOf[path]; ok {
		o.Schemas, o.SchemasFile = s.Schemas, s.File
	}
	return o
}

// SchemaFor finds the block schema for a resource change, or infers one
// from its values when no schemas were given.
func (o PlanOptions) SchemaFor(rc *tofujson.ResourceChange, config *ConfigIndex) (*tofujson.Block, error) {
	if o.Schemas == nil {
		return InferBlock(rc, config), nil
	}
	s, ok := o.Schemas.Lookup(rc.ProviderName, rc.Mode, rc.Type)
	if !ok {
		kind := "resource type"
		if rc.Mode != "managed" {
			kind = "data source"
		}
		return nil, &tofujson.InputError{File: o.SchemasFile, Msg: fmt.Sprintf(
			"no schema for %s %q of provider %q (needed by %q): the schemas do not match this plan; run `tofu providers schema -json` in the same working directory as the plan",
			kind, rc.Type, rc.ProviderName, rc.Address)}
	}
	return s.Block, nil
}

// ChangeSummary is what the first pass keeps of each resource change:
// enough to count, title and list it without its values.
type ChangeSummary struct {
	Action          diff.Action
	Moved           bool
	Importing       bool
	Mode            string
	Address         string
	PreviousAddress string
	Reason          string
	ReplacePaths    [][]any
	// At is the address split (see SplitAddress), when the read has
	// split it (a destroyed or replaced change's, for the warnings).
	At *SplitAt
	// Findings are the scanners' findings on this resource, when reports
	// came with the plan (see Findings).
	Findings []findings.Finding
	// Cost is the resource's monthly difference as said ("+742.64
	// USD/month"), when an Infracost report came with the plan and priced
	// it.
	Cost string
}

// Split is the address split: the read's (At), or made now.
func (s ChangeSummary) Split() SplitAt {
	if s.At != nil {
		return *s.At
	}
	return SplitAddress(s.Address)
}

// Shown reports whether OpenTofu prints this change among the planned
// actions.
func (s ChangeSummary) Shown() bool {
	if s.Action == diff.NoOp && !s.Moved && !s.Importing {
		return false
	}
	if s.Action == diff.Delete && s.Mode != "managed" {
		return false // deleted data sources are not worth mentioning
	}
	return s.Mode != "ephemeral"
}

// Scan is the result of the first pass over a plan.
type Scan struct {
	Plan  *tofujson.Plan
	Stats Stats
	// Changes lists every change, when the scan was asked to keep them
	// (the JSON summary); the other outputs need only the stats.
	Changes  []ChangeSummary
	HasDrift bool
	Drift    []tofujson.ResourceChange
	// ChangesEmpty is OpenTofu's "no resource diff has an action": it
	// decides whether drift is worth showing.
	ChangesEmpty bool
	// Flavor is the tool the plan was read as from (PlanOptions.ForInput).
	Flavor flavor.Flavor
}

// ScanOptions say what a first pass does besides counting.
type ScanOptions struct {
	// Masker, when set, collects every string the plan marks sensitive.
	Masker *mask.Masker
	// Each, when set, sees every resource change with its summary. Its
	// values are still raw (call rc.Change.Decode), or absent with
	// skipValues.
	Each func(*tofujson.ResourceChange, ChangeSummary) error
	// KeepAll keeps every change's summary (the JSON summary lists them).
	KeepAll bool
	// SkipValues checks the resource changes' values without keeping
	// them: a later pass reads each change again from its Span.
	SkipValues bool
	// Done, when set, stops the read once it is closed (a context's
	// Done): Err says why.
	Done <-chan struct{}
	Err  func() error
	// Beside visits the changes (Masker's work, the counts, Each) on a
	// goroutine of their own, in order, while the read goes on: Each then
	// runs there, and ReadPlan returns after the last.
	Beside bool
}

// ReadPlan is the first pass over a plan: it counts and lists the changes
// without decoding their values, unless it must.
func ReadPlan(path string, o PlanOptions, so ScanOptions) (*Scan, error) {
	masker, each, keepAll := so.Masker, so.Each, so.KeepAll
	o = o.ForInput(path)
	s := &Scan{ChangesEmpty: true, Flavor: o.Flavor}
	// Finding the sensitive strings means scanning marked values again:
	// a second goroutine does it while this one reads on.
	var secrets chan secretWork
	var secretsDone chan error
	if masker != nil {
		secrets, secretsDone = make(chan secretWork, 256), make(chan error, 1)
		go func() {
			cache := tofujson.MaskCache{}
			var first error
			for w := range secrets {
				if first == nil {
					first = w.run(cache, masker)
				}
			}
			secretsDone <- first
		}()
	}
	ropts := tofujson.ReadOptions{Lazy: true, Files: o.Files}
	var values *SpanValues
	if so.SkipValues {
		ropts.SkipValues = []string{tofujson.SectionChanges}
		values = NewSpanValues(o.Files, path)
		defer values.Close()
	}
	// The drift is rendered after the read (see Scan.Drift); its values,
	// kept apart, are decoded beside the read once the changes begin.
	var driftDecoded chan error
	decodeDrift := func() {
		if driftDecoded != nil || len(s.Drift) == 0 {
			return
		}
		driftDecoded = make(chan error, 1)
		go func(drift []tofujson.ResourceChange) {
			var first error
			for i := range drift {
				if err := drift[i].Change.Decode(); err != nil && first == nil {
					first = err
				}
			}
			driftDecoded <- first
		}(s.Drift)
	}
	// Whoever was handed changes is done with them before ReadPlan
	// returns: it answers for all of them.
	var secretsErr error
	var changes *changePipe // the changes, visited beside the read (Beside)
	finish := func() error {
		if changes != nil {
			if err := changes.close(); err != nil {
				return err
			}
		}
		if driftDecoded != nil {
			if err := <-driftDecoded; err != nil {
				return err
			}
		}
		if masker != nil {
			close(secrets)
			secretsErr = <-secretsDone
		}
		return secretsErr
	}
	// handOn gives a change's sensitive values to the goroutine finding
	// the secrets in them.
	handOn := func(rc *tofujson.ResourceChange) {
		if masker != nil {
			secrets <- secretWorkOf(&rc.Change)
		}
	}
	visitChange := func(rc *tofujson.ResourceChange) error {
		handOn(rc)
		action, _ := tofujson.ParseActions(rc.Change.Actions)
		sum := ChangeSummary{Action: action, Moved: rc.Moved(), Importing: rc.Importing(), Mode: rc.Mode,
			Address: rc.Address, PreviousAddress: rc.PreviousAddress, Reason: rc.ActionReason, ReplacePaths: rc.Change.ReplacePaths}
		if keepAll {
			s.Changes = append(s.Changes, sum)
		}
		if sum.Shown() && IsRisky(action) { // split for the warnings' groups, and kept for Each
			at := SplitAddress(sum.Address)
			sum.At = &at
		}
		s.Stats.add(sum)
		if o.Schemas != nil { // a plan the schemas do not cover is an error
			if _, err := o.SchemaFor(rc, nil); err != nil {
				return err
			}
		}
		if s.ChangesEmpty {
			switch {
			case rc.Moved():
				s.ChangesEmpty = false
			case action != diff.NoOp && action != diff.Update:
				// Creates, deletes, reads and forgets always differ.
				s.ChangesEmpty = false
			default:
				// Only the diff tells whether an update changes anything.
				rc, err := values.Decode(rc)
				if err != nil {
					return err
				}
				block, err := o.SchemaFor(rc, nil)
				if err != nil {
					return err
				}
				if diff.ForResource(&rc.Change, block, diff.Always()).Action != diff.NoOp {
					s.ChangesEmpty = false
				}
			}
		}
		if each != nil {
			return each(rc, sum)
		}
		return nil
	}
	if so.Beside {
		changes = startChangePipe(path, visitChange)
	}
	seen := 0
	p, err := tofujson.ReadPlan(path, ropts, func(section string, rc *tofujson.ResourceChange) error {
		if seen++; so.Done != nil && seen%64 == 0 {
			select {
			case <-so.Done:
				return so.Err()
			default:
			}
		}
		if section == tofujson.SectionDrift {
			handOn(rc)
			// Drift is shown first but needs relevant_attributes, which
			// come last: keep the entries (their values still raw JSON).
			s.HasDrift = true
			s.Drift = append(s.Drift, *rc)
			return nil
		}
		decodeDrift()
		if changes != nil {
			return changes.add(rc)
		}
		return visitChange(rc)
	})
	if ferr := finish(); err == nil {
		err = ferr
	}
	if err != nil {
		return nil, err
	}
	s.Plan = p
	if masker != nil {
		for name, oc := range p.OutputChanges {
			masker.AddMarked(oc.Before, oc.BeforeSensitive)
			masker.AddMarked(oc.After, oc.AfterSensitive)
			addNameKeyed(masker, name, oc.Before, oc.After)
		}
		for _, v := range p.SensitiveVariables() {
			masker.AddValue(v)
		}
		for name, v := range p.Variables {
			addNameKeyed(masker, name, v.Value)
		}
		for _, d := range p.DeferredChanges {
			c := d.ResourceChange.Change
			masker.AddMarked(c.Before, c.BeforeSensitive)
			masker.AddMarked(c.After, c.AfterSensitive)
		}
		for _, ai := range p.ActionInvocations {
			masker.AddMarked(ai.ConfigValues, ai.ConfigSensitive)
		}
	}
	return s, nil
}

// secretWork is what the goroutine finding a change's secrets does with
// it: the values its sensitivity mirrors mark, and the ones its names
// say are credentials (mask.AddNameKeyed), raw or decoded.
type secretWork struct {
	sensitive tofujson.SensitiveWork
	raw       [2][]byte // before and after, as the plan wrote them
	mirrors   [2][]byte // their sensitivity mirrors, as written
	values    [2]any    // or decoded, for a change read whole
}

func secretWorkOf(c *tofujson.Change) secretWork {
	w := secretWork{sensitive: c.SensitiveWork()}
	if raws := c.RawValues(); raws != nil {
		w.raw = [2][]byte{raws[0], raws[1]}
		w.mirrors = [2][]byte{raws[3], raws[4]}
	} else {
		w.values = [2]any{c.Before, c.After}
	}
	return w
}

func (w secretWork) run(cache tofujson.MaskCache, m *mask.Masker) error {
	if !w.sensitive.Empty() {
		if err := w.sensitive.Run(cache, m.AddSecret); err != nil {
			return err
		}
	}
	for i := range 2 {
		if w.raw[i] != nil {
			if err := m.AddNameKeyedRaw(w.raw[i], w.mirrors[i]); err != nil {
				return err
			}
		} else if w.values[i] != nil {
			m.AddNameKeyed(w.values[i])
		}
	}
	return nil
}

// addNameKeyed records the secrets of a named value (an output, a root
// variable): all of it when its name reads as a credential's, else what
// its inner names say.
func addNameKeyed(m *mask.Masker, name string, values ...any) {
	for _, v := range values {
		if mask.CredentialName(name) {
			m.AddValue(v)
		} else {
			m.AddNameKeyed(v)
		}
	}
}

// SpanValues decodes, for a pass that skipped them, the values of the few
// changes the pass itself must diff.
type SpanValues struct {
	files *tofujson.Files
	path  string
	f     tofujson.Text
	cr    *tofujson.ChangeReader
	rc    tofujson.ResourceChange
}

// NewSpanValues reads changes again from the plan at path, one of the
// run's files, by their spans.
func NewSpanValues(files *tofujson.Files, path string) *SpanValues {
	return &SpanValues{files: files, path: path}
}

// Decode returns rc with its values decoded: rc itself when the pass kept
// them raw (v is nil), or a copy read again from the file.
func (v *SpanValues) Decode(rc *tofujson.ResourceChange) (*tofujson.ResourceChange, error) {
	if v == nil {
		return rc, rc.Change.Decode()
	}
	if v.cr == nil {
		f, err := v.files.Open(v.path) // the UTF-8 text the pass read
		if err != nil {
			return nil, err
		}
		v.f, v.cr = f, tofujson.NewChangeReader(v.path, f)
	}
	if err := v.cr.Read(rc.Span, &v.rc); err != nil {
		return nil, err
	}
	return &v.rc, nil
}

func (v *SpanValues) Close() {
	if v.f != nil {
		v.f.Close()
	}
}

// Stats are the counts a plan's outputs need, gathered as the plan
// is read so that no list of every change is kept.
type Stats struct {
	Counts                 map[diff.Action]int
	Total                  Counts
	Shown, Moved, Imported int
	Risky                  int
	riskyGroups            Groups // see RiskyGroupsBySize
	AnyAction              bool   // some change has an action, a move or an import
}

// RiskyGroupsBySize are the destroyed and replaced changes in groups (see
// ChangeGroup), the largest first (ties in order of appearance).
func (st *Stats) RiskyGroupsBySize() []*ChangeGroup {
	gs := slices.Clone(st.riskyGroups.List)
	slices.SortStableFunc(gs, func(a, b *ChangeGroup) int { return b.Count - a.Count })
	return gs
}

func (st *Stats) add(c ChangeSummary) {
	if c.Action != diff.NoOp || c.Moved || c.Importing {
		st.AnyAction = true
	}
	if !c.Shown() {
		return
	}
	if st.Counts == nil {
		st.Counts = map[diff.Action]int{}
	}
	st.Shown++
	if c.Moved {
		st.Moved++
	}
	if c.Importing {
		st.Imported++
		st.Total.Import++
	}
	if c.Action == diff.Forget || c.Action == diff.ForgetThenCreate || c.Action == diff.CreateThenForget {
		st.Total.Forget++
	}
	if c.Action != diff.NoOp {
		st.Counts[c.Action]++
	}
	if IsRisky(c.Action) {
		st.Risky++
		if st.riskyGroups.Limit == 0 {
			st.riskyGroups.Limit = maxRiskyGroups
		}
		at := c.Split()
		st.riskyGroups.AddSplit(riskyKey(c), c, &at)
	}
	// The "Plan:" line's totals, as sums of Counts, one change at a time.
	switch c.Action {
	case diff.Create, diff.ForgetThenCreate, diff.CreateThenForget:
		st.Total.Add++
	case diff.DeleteThenCreate, diff.CreateThenDelete:
		st.Total.Add++
		st.Total.Destroy++
	case diff.Update:
		st.Total.Change++
	case diff.Delete:
		st.Total.Destroy++
	}
}

// Counts are the numbers in OpenTofu's "Plan:" line.
type Counts struct {
	Import, Add, Change, Destroy, Forget int
}

// Include adds o's counts to c's.
func (c *Counts) Include(o Counts) {
	c.Import += o.Import
	c.Add += o.Add
	c.Change += o.Change
	c.Destroy += o.Destroy
	c.Forget += o.Forget
}

// Any reports whether anything is counted.
func (c Counts) Any() bool { return c != Counts{} }

// String is the counts as OpenTofu's "Plan:" line says them, without its
// "Plan: " and its period: "1 to import, 2 to add, 0 to change, 1 to
// destroy, 1 to forget", imports and forgets only when there are some. The
// text, the comment's titles and a stream's summary all say it so.
func (c Counts) String() string {
	var parts []string
	if c.Import > 0 {
		parts = append(parts, fmt.Sprintf("%d to import", c.Import))
	}
	parts = append(parts, fmt.Sprintf("%d to add", c.Add), fmt.Sprintf("%d to change", c.Change), fmt.Sprintf("%d to destroy", c.Destroy))
	if c.Forget > 0 {
		parts = append(parts, fmt.Sprintf("%d to forget", c.Forget))
	}
	return strings.Join(parts, ", ")
}

// Tally counts the changes OpenTofu shows: per action, the "Plan:" line's
// numbers, and how many are shown at all.
func (s *Scan) Tally() (map[diff.Action]int, Counts, int) {
	counts := s.Stats.Counts
	if counts == nil {
		counts = map[diff.Action]int{}
	}
	return counts, s.Stats.Total, s.Stats.Shown
}

// Applyable is OpenTofu's CanApply as far as the JSON tells it: the plan did
// not fail and some resource or root output has an action to take.
func (s *Scan) Applyable() bool {
	if s.Plan.Errored {
		return false
	}
	if s.Stats.AnyAction {
		return true
	}
	for _, oc := range s.Plan.OutputChanges {
		if a, _ := tofujson.ParseActions(oc.Actions); a != diff.NoOp {
			return true
		}
	}
	return false
}

func IsRisky(a diff.Action) bool {
	return a == diff.Delete || a == diff.DeleteThenCreate || a == diff.CreateThenDelete
}

// ReadSchemasOf reads the schemas each plan came with (plan path →
// schemas file, as inputs.SchemasBeside finds them) through the run's
// files, each schemas file once.
func ReadSchemasOf(files *tofujson.Files, byPlan map[string]string) (map[string]PlanSchemas, error) {
	read := map[string]*tofujson.Schemas{}
	out := map[string]PlanSchemas{}
	for plan, file := range byPlan {
		s, ok := read[file]
		if !ok {
			var err error
			if s, err = files.ReadSchemas(file); err != nil {
				return nil, err
			}
			read[file] = s
		}
		out[plan] = PlanSchemas{Schemas: s, File: file}
	}
	return out, nil
}
