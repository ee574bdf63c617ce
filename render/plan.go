package render

import (
	"fmt"
	"os"

	"github.com/planpr/planpr/render/diff"
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
}

// schemaFor finds the block schema for a resource change, or infers one
// from its values when no schemas were given.
func (o PlanOptions) schemaFor(rc *tofujson.ResourceChange, config *configIndex) (*tofujson.Block, error) {
	if o.Schemas == nil {
		return inferBlock(rc, config), nil
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

// changeSummary is what the first pass keeps of each resource change:
// enough to count, title and list it without its values.
type changeSummary struct {
	action          diff.Action
	moved           bool
	importing       bool
	mode            string
	address         string
	previousAddress string
	reason          string
	replacePaths    [][]any
}

// shown reports whether OpenTofu prints this change among the planned
// actions.
func (s changeSummary) shown() bool {
	if s.action == diff.NoOp && !s.moved && !s.importing {
		return false
	}
	if s.action == diff.Delete && s.mode != "managed" {
		return false // deleted data sources are not worth mentioning
	}
	return s.mode != "ephemeral"
}

// planScan is the result of the first pass over a plan.
type planScan struct {
	plan  *tofujson.Plan
	stats changeStats
	// changes lists every change, when the scan was asked to keep them
	// (the JSON summary); the other outputs need only the stats.
	changes  []changeSummary
	hasDrift bool
	drift    []tofujson.ResourceChange
	// changesEmpty is OpenTofu's "no resource diff has an action": it
	// decides whether drift is worth showing.
	changesEmpty bool
}

// scanOptions say what a first pass does besides counting.
type scanOptions struct {
	// masker, when set, collects every string the plan marks sensitive.
	masker *mask.Masker
	// each, when set, sees every resource change with its summary. Its
	// values are still raw (call rc.Change.Decode), or absent with
	// skipValues.
	each func(*tofujson.ResourceChange, changeSummary) error
	// keepAll keeps every change's summary (the JSON summary lists them).
	keepAll bool
	// skipValues checks the resource changes' values without keeping
	// them: a later pass reads each change again from its Span.
	skipValues bool
}

// scanPlan is the first pass over a plan: it counts and lists the changes
// without decoding their values, unless it must.
func scanPlan(path string, o PlanOptions, so scanOptions) (*planScan, error) {
	masker, each, keepAll := so.masker, so.each, so.keepAll
	s := &planScan{changesEmpty: true}
	// Finding the sensitive strings means scanning marked values again:
	// a second goroutine does it while this one reads on.
	var secrets chan tofujson.SensitiveWork
	var secretsDone chan error
	if masker != nil {
		secrets, secretsDone = make(chan tofujson.SensitiveWork, 256), make(chan error, 1)
		go func() {
			cache := tofujson.MaskCache{}
			var first error
			for w := range secrets {
				if first == nil {
					first = w.Run(cache, masker.AddSecret)
				}
			}
			secretsDone <- first
		}()
	}
	ropts := tofujson.ReadOptions{Lazy: true}
	var values *spanValues
	if so.skipValues {
		ropts.SkipValues = []string{tofujson.SectionChanges}
		values = &spanValues{path: path}
		defer values.close()
	}
	p, err := tofujson.ReadPlan(path, ropts, func(section string, rc *tofujson.ResourceChange) error {
		if masker != nil {
			if w := rc.Change.SensitiveWork(); !w.Empty() {
				secrets <- w
			}
		}
		if section == tofujson.SectionDrift {
			// Drift is shown first but needs relevant_attributes, which
			// come last: keep the entries (their values still raw JSON).
			s.hasDrift = true
			s.drift = append(s.drift, *rc)
			return nil
		}
		action, _ := tofujson.ParseActions(rc.Change.Actions)
		sum := changeSummary{action: action, moved: rc.Moved(), importing: rc.Importing(), mode: rc.Mode,
			address: rc.Address, previousAddress: rc.PreviousAddress, reason: rc.ActionReason, replacePaths: rc.Change.ReplacePaths}
		s.stats.add(sum)
		if keepAll {
			s.changes = append(s.changes, sum)
		}
		if o.Schemas != nil { // a plan the schemas do not cover is an error
			if _, err := o.schemaFor(rc, nil); err != nil {
				return err
			}
		}
		if s.changesEmpty {
			switch {
			case rc.Moved():
				s.changesEmpty = false
			case action != diff.NoOp && action != diff.Update:
				// Creates, deletes, reads and forgets always differ.
				s.changesEmpty = false
			default:
				// Only the diff tells whether an update changes anything.
				rc, err := values.decode(rc)
				if err != nil {
					return err
				}
				block, err := o.schemaFor(rc, nil)
				if err != nil {
					return err
				}
				if diff.ForResource(&rc.Change, block, diff.Always()).Action != diff.NoOp {
					s.changesEmpty = false
				}
			}
		}
		if each != nil {
			return each(rc, sum)
		}
		return nil
	})
	if masker != nil {
		close(secrets)
		if serr := <-secretsDone; err == nil && serr != nil {
			err = serr
		}
	}
	if err != nil {
		return nil, err
	}
	s.plan = p
	if masker != nil {
		for _, oc := range p.OutputChanges {
			masker.AddMarked(oc.Before, oc.BeforeSensitive)
			masker.AddMarked(oc.After, oc.AfterSensitive)
		}
		for _, v := range p.SensitiveVariables() {
			masker.AddValue(v)
		}
	}
	return s, nil
}

// spanValues decodes, for a pass that skipped them, the values of the few
// changes the pass itself must diff.
type spanValues struct {
	path string
	f    *os.File
	cr   *tofujson.ChangeReader
	rc   tofujson.ResourceChange
}

// decode returns rc with its values decoded: rc itself when the pass kept
// them raw (v is nil), or a copy read again from the file.
func (v *spanValues) decode(rc *tofujson.ResourceChange) (*tofujson.ResourceChange, error) {
	if v == nil {
		return rc, rc.Change.Decode()
	}
	if v.cr == nil {
		f, err := os.Open(v.path)
		if err != nil {
			return nil, &tofujson.InputError{File: v.path, Msg: err.Error()}
		}
		v.f, v.cr = f, tofujson.NewChangeReader(v.path, f)
	}
	if err := v.cr.Read(rc.Span, &v.rc); err != nil {
		return nil, err
	}
	return &v.rc, nil
}

func (v *spanValues) close() {
	if v.f != nil {
		v.f.Close()
	}
}

// maxRiskyListed is how many destroyed or replaced resources the warnings
// can name; the rest are counted.
const maxRiskyListed = 200

// changeStats are the counts a plan's outputs need, gathered as the plan
// is read so that no list of every change is kept.
type changeStats struct {
	counts                 map[diff.Action]int
	total                  Counts
	shown, moved, imported int
	risky                  int
	riskyListed            []changeSummary
	anyAction              bool // some change has an action, a move or an import
}

func (st *changeStats) add(c changeSummary) {
	if c.action != diff.NoOp || c.moved || c.importing {
		st.anyAction = true
	}
	if !c.shown() {
		return
	}
	if st.counts == nil {
		st.counts = map[diff.Action]int{}
	}
	st.shown++
	if c.moved {
		st.moved++
	}
	if c.importing {
		st.imported++
		st.total.Import++
	}
	if c.action == diff.Forget || c.action == diff.ForgetThenCreate {
		st.total.Forget++
	}
	if c.action != diff.NoOp {
		st.counts[c.action]++
	}
	if isRisky(c.action) {
		st.risky++
		if len(st.riskyListed) < maxRiskyListed {
			st.riskyListed = append(st.riskyListed, c)
		}
	}
	st.total.Add = st.counts[diff.Create] + st.counts[diff.DeleteThenCreate] + st.counts[diff.CreateThenDelete] + st.counts[diff.ForgetThenCreate]
	st.total.Change = st.counts[diff.Update]
	st.total.Destroy = st.counts[diff.Delete] + st.counts[diff.DeleteThenCreate] + st.counts[diff.CreateThenDelete]
}
