package review

import (
	"cmp"
	"github.com/planpr/planpr/render/findings"
	"github.com/planpr/planpr/render/inputs"
	"slices"
	"strings"

	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/tofujson"
)

// Module is what one root module's inputs say, read once for every
// format: the plan's first pass, its streams, and their counts. It holds
// facts and the resources the pass kept, never the whole plan.
type Module struct {
	Name, Path, Source string
	Root               string // see inputs.Root
	Scan               *Scan
	Streams            []*StreamSummary
	Counts             map[diff.Action]int // the changes shown, by action
	Total              Counts              // the "Plan:" line
	Shown              int                 // how many changes are shown
	// Findings are the scanners' findings placed on the plan (nil when
	// none were given); Cost what Infracost says it costs (nil: not said).
	Findings *Findings
	Cost     *findings.Cost
}

// ReadModule reads a root module's plan (one pass, calling so.Each for
// each change) and its streams, whose secrets join so.Masker.
func ReadModule(in inputs.Root, o PlanOptions, so ScanOptions) (*Module, error) {
	m := &Module{Name: in.Name, Path: in.Path, Source: cmp.Or(in.Source, in.Path), Root: in.Root}
	if len(in.Costs) > 0 && in.Path != "" {
		cost, err := readCost(o.Files, in.Costs)
		if err != nil {
			return nil, err
		}
		m.Cost = cost
		each := so.Each
		so.Each = func(rc *tofujson.ResourceChange, c ChangeSummary) error {
			if d := cost.Resources[c.Address]; d != nil && d.Sign() != 0 {
				c.Cost = findings.Money(d, cost.Currency, true) + "/month"
			}
			if each != nil {
				return each(rc, c)
			}
			return nil
		}
	}
	if len(in.Findings)+len(in.Policies) > 0 && in.Path != "" {
		place, done, found, err := placeFindings(o.Files, in)
		if err != nil {
			return nil, err
		}
		each := so.Each
		so.Each = func(rc *tofujson.ResourceChange, c ChangeSummary) error {
			c.Findings = place(c)
			if each != nil {
				return each(rc, c)
			}
			return nil
		}
		defer done() // what no change took is unmatched
		m.Findings = found
	}
	if in.Path != "" {
		scan, err := ReadPlan(in.Path, o, so)
		if err != nil {
			return nil, err
		}
		m.Scan = scan
	} else {
		m.Scan = &Scan{Plan: &tofujson.Plan{}, ChangesEmpty: true}
	}
	for _, path := range in.Streams {
		st, err := ReadStream(o.Files, path)
		if err != nil {
			return nil, err
		}
		st.AddSecrets(so.Masker)
		m.Streams = append(m.Streams, st)
	}
	if m.Name == "" {
		m.Name = inputs.ModuleName(cmp.Or(in.Path, first(in.Streams)))
	}
	m.Counts, m.Total, m.Shown = m.Scan.Tally()
	if in.Path == "" {
		// Without a plan JSON the stream's own summary gives the counts.
		for _, st := range m.Streams {
			if c := st.Changes; c != nil {
				m.Total = Counts{Add: c.Add, Change: c.Change, Destroy: c.Remove, Import: c.Import, Forget: c.Forget}
			}
		}
	}
	return m, nil
}

func first(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[0]
}

// Failure is what failed in a module, worst last: nothing, something its
// streams report (an apply, a test, an error), or its plan.
type Failure int

const (
	NoFailure Failure = iota
	RunFailed
	PlanFailed
)

// String is how a title says it: "planning failed", "failed", or "".
func (f Failure) String() string {
	switch f {
	case PlanFailed:
		return "planning failed"
	case RunFailed:
		return "failed"
	}
	return ""
}

// Failure says what failed in the module.
func (m *Module) Failure() Failure {
	if m.Scan.Plan.Errored {
		return PlanFailed
	}
	for _, st := range m.Streams {
		if st.Failed() {
			return RunFailed
		}
	}
	return NoFailure
}

// Replaced counts the changes that replace a resource, however they do it.
func (m *Module) Replaced() int {
	return m.Counts[diff.DeleteThenCreate] + m.Counts[diff.CreateThenDelete] + m.Counts[diff.ForgetThenCreate] + m.Counts[diff.CreateThenForget]
}

// FailedCheck is a check instance that failed, or could not be checked.
type FailedCheck struct {
	Address  string
	Errored  bool     // status "error": it could not be checked
	Messages []string // its problems
}

// String says what failed and why, as the comment's warnings do.
func (c FailedCheck) String() string {
	verb := "failed"
	if c.Errored {
		verb = "could not be checked"
	}
	return c.Address + " " + verb + ": " + strings.Join(c.Messages, "; ")
}

// FailedChecks lists the plan's failed checks in the plan's order.
func (m *Module) FailedChecks() []FailedCheck {
	var out []FailedCheck
	for _, c := range m.Scan.Plan.Checks {
		for _, inst := range c.Instances {
			if inst.Status != "fail" && inst.Status != "error" {
				continue
			}
			fc := FailedCheck{Address: inst.Address.ToDisplay, Errored: inst.Status == "error"}
			for _, pr := range inst.Problems {
				fc.Messages = append(fc.Messages, pr.Message)
			}
			out = append(out, fc)
		}
	}
	return out
}

// ChangedOutputs names the root module outputs the plan changes, sorted.
func (m *Module) ChangedOutputs() []string { return m.Scan.ChangedOutputs() }

// ChangedOutputs names the root module outputs the plan changes, sorted:
// the one place that decides whether an output changes.
func (s *Scan) ChangedOutputs() []string {
	var out []string
	for name, oc := range s.Plan.OutputChanges {
		if diff.ForOutput(&oc).Action != diff.NoOp {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
