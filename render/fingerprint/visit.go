package fingerprint

import (
	"maps"
	"slices"

	"github.com/planpr/planpr/render/tofujson"
)

// visit returns what fn makes of every entry of the plan at path — the
// resource instances, then the root outputs — in no particular order,
// fn given the entry's values as decoded and their marks beside them
// (Before and After unset). The changes are decoded and fn runs beside
// the read, on a goroutine of its own and, when that one falls behind, on
// the reading one: fn runs on both at once.
func visit[R any](path string, fn func(e Entry, before, after marked) R) ([]R, error) {
	work := make(chan tofujson.ResourceChange, 64)
	done := make(chan struct{})
	var theirs []R
	var failed error
	go func() {
		defer close(done)
		// The values are borrowed from the mapped plan, which faults if
		// the file is cut short meanwhile: an error then, not a crash.
		var decodeErr error
		fault := tofujson.Guard(func() {
			for rc := range work {
				if decodeErr != nil {
					continue // the read fails: the rest is not looked at
				}
				r, err := entry(&rc, fn)
				if err != nil {
					decodeErr = err
					continue
				}
				theirs = append(theirs, r)
			}
		})
		for range work { // what is still queued after a fault
		}
		if failed = fault; failed == nil {
			failed = decodeErr
		}
	}()
	var ours []R
	opts := tofujson.ReadOptions{Sections: []string{tofujson.SectionChanges}, Lazy: true, Borrow: true,
		Finish: func() error { // the values are borrowed until the read returns
			close(work)
			<-done
			return failed
		}}
	plan, err := tofujson.ReadPlan(path, opts, func(section string, rc *tofujson.ResourceChange) error {
		if section != tofujson.SectionChanges {
			return nil
		}
		if a, err := tofujson.ParseActions(rc.Change.Actions); err != nil || a == tofujson.NoOp && !rc.Moved() && !rc.Importing() {
			return err // nothing to do, or no actions the reader knows
		}
		select {
		case work <- *rc:
			return nil
		default:
		}
		r, err := entry(rc, fn)
		ours = append(ours, r)
		return err
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
		ours = append(ours, fn(entryOf("output."+name, oc), before, after))
	}
	return append(ours, theirs...), nil
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
