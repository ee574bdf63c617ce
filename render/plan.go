package render

import (
	"fmt"

	"github.com/planpr/planpr/render/diff"
	"github.com/planpr/planpr/render/tofujson"
)

// Mode is how the plan was made; the plan JSON does not record it.
type Mode string

const (
	ModeNormal      Mode = "normal"
	ModeDestroy     Mode = "destroy"
	ModeRefreshOnly Mode = "refresh-only"
)

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
			"no schema for %s %q of provider %s (needed by %s): the schemas do not match this plan; run `tofu providers schema -json` in the same working directory as the plan",
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
	plan     *tofujson.Plan
	changes  []changeSummary
	hasDrift bool
	drift    []tofujson.ResourceChange
	// changesEmpty is OpenTofu's "no resource diff has an action": it
	// decides whether drift is worth showing.
	changesEmpty bool
}

// scanPlan is the first pass over a plan: it counts and lists the changes
// without decoding their values, unless asked. With a masker it collects
// every string the plan marks sensitive; each, when set, sees every
// resource change (values still raw: call rc.Change.Decode) with its
// summary.
func scanPlan(path string, o PlanOptions, masker *Masker, each func(*tofujson.ResourceChange, changeSummary) error) (*planScan, error) {
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
					first = w.Run(cache, masker.Add)
				}
			}
			secretsDone <- first
		}()
	}
	p, err := tofujson.ReadPlan(path, tofujson.ReadOptions{Lazy: true}, func(section string, rc *tofujson.ResourceChange) error {
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
		s.changes = append(s.changes, sum)
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
				if err := rc.Change.Decode(); err != nil {
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
