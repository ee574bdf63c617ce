package fingerprint

import (
	"maps"
	"slices"

	"github.com/planpr/planpr/render/internal/beside"
	"github.com/planpr/planpr/render/tofujson"
)

// visit returns what fn makes of every entry of the plan at path — the
// resource instances, then the root outputs — fn given the entry's values
// as decoded and their marks beside them (Before and After unset). The
// changes are decoded and fn runs beside the read (package beside): on
// two goroutines at once.
func visit[R any](path string, fn func(e Entry, before, after marked) R) ([]R, error) {
	w := beside.Start(func(rc tofujson.ResourceChange) (R, error) { return entry(&rc, fn) })
	var entries []R
	opts := tofujson.ReadOptions{Sections: []string{tofujson.SectionChanges}, Lazy: true, Borrow: true,
		Finish: func() (err error) { // the values are borrowed until the read returns
			entries, err = w.Wait()
			return err
		}}
	plan, err := tofujson.ReadPlan(path, opts, func(section string, rc *tofujson.ResourceChange) error {
		if section != tofujson.SectionChanges {
			return nil
		}
		if a, err := tofujson.ParseActions(rc.Change.Actions); err != nil || a == tofujson.NoOp && !rc.Moved() && !rc.Importing() {
			return err // nothing to do, or no actions the reader knows
		}
		return w.Add(*rc)
	})
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(plan.OutputChanges)) {
		oc := plan.OutputChanges[name]
		if a, err := tofujson.ParseActions(oc.Actions); err != nil || a == tofujson.NoOp {
			continue
		}
		before, after := marksOf(oc)
		entries = append(entries, fn(entryOf("output."+name, oc), before, after))
	}
	return entries, nil
}

// entry decodes a resource change and gives fn its entry.
func entry[R any](rc *tofujson.ResourceChange, fn func(e Entry, before, after marked) R) (R, error) {
	if err := rc.Change.Decode(); err != nil { // copies what it decodes: nothing stays borrowed
		var none R
		return none, err
	}
	e := entryOf(rc.Address, rc.Change)
	e.Reason = rc.ActionReason
	if rc.Moved() {
		e.Previous = rc.PreviousAddress
	}
	if rc.Deposed != "" {
		e.Address += " (deposed " + rc.Deposed + ")"
	}
	before, after := marksOf(rc.Change)
	return fn(e, before, after), nil
}
