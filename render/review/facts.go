package review

import (
	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/tofujson/uistream"
)

// FactCounts are a plan's numbers for workflows to branch on.
type FactCounts struct {
	Add     int `json:"add"`
	Change  int `json:"change"`
	Destroy int `json:"destroy"`
	Replace int `json:"replace"`
	Import  int `json:"import"`
	Forget  int `json:"forget"`
	Read    int `json:"read"`
	Move    int `json:"move"`
}

// ReplaceReason says why a resource is replaced or destroyed.
type ReplaceReason struct {
	Reason     string   `json:"reason,omitempty"`
	Attributes []string `json:"attributes,omitempty"`
}

// PlanFacts are the machine summary of one root module, as planpr's JSON
// summary gives them.
type PlanFacts struct {
	Name           string                   `json:"name"`
	Path           string                   `json:"path"`
	Counts         FactCounts               `json:"counts"`
	Addresses      map[string][]string      `json:"addresses"`
	ReplaceReasons map[string]ReplaceReason `json:"replace_reasons"`
	Drift          []string                 `json:"drift"`
	OutputsChanged []string                 `json:"outputs_changed"`
	Errored        bool                     `json:"errored"`
	FailedChecks   []string                 `json:"failed_checks"`
	Warnings       []string                 `json:"warnings"`
	Streams        []StreamFacts            `json:"streams"`
	// Findings are the scanners' findings placed on the plan (absent
	// when no report was given).
	Findings *FindingFacts `json:"findings,omitempty"`
	// Cost is what Infracost says the plan does to the monthly bill
	// (absent when no report was given).
	Cost *CostFacts `json:"cost,omitempty"`
}

// CostFacts are a root's monthly cost, exact decimals in its currency.
type CostFacts struct {
	Currency  string            `json:"currency"`
	Before    string            `json:"before,omitempty"`
	After     string            `json:"after"`
	Delta     string            `json:"delta"`
	Resources map[string]string `json:"resources"` // each resource's monthly difference
}

// FindingFacts are a root's scanner findings in its summary: counted by
// severity on the changes, listed per resource, the rest counted apart.
type FindingFacts struct {
	Counts    map[string]int           `json:"counts"` // on the changes, by severity
	Resources map[string][]FindingFact `json:"resources"`
	Unchanged int                      `json:"on_resources_left_alone"`
	Unmatched []FindingFact            `json:"unmatched"`
	Dropped   int                      `json:"dropped,omitempty"`
}

// FindingFact is one finding.
type FindingFact struct {
	Tool     string `json:"tool"`
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	// Level is the severity on the lock review's scale (alert, warning,
	// notice, info), which workflows may already branch on.
	Level   string `json:"level"`
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Help    string `json:"help,omitempty"`
}

// StreamFacts is what a UI stream adds to a plan's summary.
type StreamFacts struct {
	Path          string                  `json:"path"`
	Version       string                  `json:"version"`
	ChangeSummary *uistream.ChangeSummary `json:"change_summary"`
	Planned       []StreamFactItem        `json:"planned"`
	Applies       []ApplyFact             `json:"applies"`
	Diagnostics   []DiagnosticFact        `json:"diagnostics"`
	Tests         []TestFact              `json:"tests"`
	TestSummary   *uistream.TestSummary   `json:"test_summary"`
	Outputs       map[string]OutputFact   `json:"outputs"`
	Truncated     int                     `json:"truncated_at_line,omitempty"`
}

// StreamFactItem is a planned change from a stream.
type StreamFactItem struct {
	Address string `json:"address"`
	Action  string `json:"action"`
	Reason  string `json:"reason,omitempty"`
}

// ApplyFact is one resource operation's outcome.
type ApplyFact struct {
	Address        string  `json:"address"`
	Action         string  `json:"action"`
	Status         string  `json:"status"`
	ElapsedSeconds float64 `json:"elapsed_seconds"`
}

// DiagnosticFact is one diagnostic, its detail masked.
type DiagnosticFact struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
}

// TestFact is one test run.
type TestFact struct {
	File   string `json:"file"`
	Run    string `json:"run,omitempty"`
	Status string `json:"status"`
}

// OutputFact says an output is there; values are not repeated.
type OutputFact struct {
	Sensitive bool   `json:"sensitive"`
	Action    string `json:"action,omitempty"`
}

// Include adds o's counts to c's.
func (c *FactCounts) Include(o FactCounts) {
	c.Add += o.Add
	c.Change += o.Change
	c.Destroy += o.Destroy
	c.Replace += o.Replace
	c.Import += o.Import
	c.Forget += o.Forget
	c.Read += o.Read
	c.Move += o.Move
}

// Facts summarises a stream; what its diagnostics say is not masked here.
func (st *StreamSummary) Facts() StreamFacts {
	f := StreamFacts{Path: st.Path, Version: st.Info.Version, ChangeSummary: st.Changes, TestSummary: st.TestSummary,
		Planned: []StreamFactItem{}, Applies: []ApplyFact{}, Diagnostics: []DiagnosticFact{}, Tests: []TestFact{},
		Outputs: map[string]OutputFact{}, Truncated: st.Info.Truncated}
	for _, it := range st.Planned {
		f.Planned = append(f.Planned, StreamFactItem{it.Address, it.Action, it.Reason})
	}
	for _, a := range st.Applies {
		f.Applies = append(f.Applies, ApplyFact{a.Address, a.Action, a.Status, a.Elapsed})
	}
	diag := func(d *uistream.Diagnostic) DiagnosticFact {
		df := DiagnosticFact{Severity: d.Severity, Summary: d.Summary, Detail: d.Detail}
		if d.Range != nil {
			df.File, df.Line = d.Range.Filename, d.Range.Start.Line
		}
		return df
	}
	for _, d := range st.Diagnostics {
		f.Diagnostics = append(f.Diagnostics, diag(d))
	}
	for _, tf := range st.Tests {
		if len(tf.Runs) == 0 {
			f.Tests = append(f.Tests, TestFact{File: tf.Path, Status: tf.Status})
		}
		for _, r := range tf.Runs {
			f.Tests = append(f.Tests, TestFact{tf.Path, r.Name, r.Status})
			for _, d := range r.Diagnostics {
				f.Diagnostics = append(f.Diagnostics, diag(d))
			}
		}
	}
	for name, o := range st.Outputs {
		f.Outputs[name] = OutputFact{o.Sensitive, o.Action}
	}
	return f
}

var summaryActionNames = map[diff.Action]string{
	diff.Create: "create", diff.Update: "update", diff.Delete: "delete",
	diff.DeleteThenCreate: "replace", diff.CreateThenDelete: "replace", diff.ForgetThenCreate: "replace", diff.CreateThenForget: "replace",
	diff.Read: "read", diff.Forget: "forget",
}

// Facts are the module's machine summary but for Drift, which is the
// caller's to fill (which drift counts is a format's choice, see
// render/text); path writes a replace path.
func (m *Module) Facts(path func([]any) string) PlanFacts {
	failure := m.Failure()
	f := PlanFacts{Name: m.Name, Path: m.Source, Addresses: map[string][]string{}, ReplaceReasons: map[string]ReplaceReason{},
		Drift: []string{}, OutputsChanged: []string{}, FailedChecks: []string{}, Warnings: []string{},
		Errored: failure != NoFailure, Streams: []StreamFacts{}}
	for _, st := range m.Streams {
		f.Streams = append(f.Streams, st.Facts())
	}
	if m.Findings != nil {
		f.Findings = m.Findings.Facts()
	}
	if c := m.Cost; c != nil {
		f.Cost = &CostFacts{Currency: c.Currency, After: c.Now.FloatString(2), Delta: c.Delta.FloatString(2), Resources: map[string]string{}}
		if c.Past != nil {
			f.Cost.Before = c.Past.FloatString(2)
		}
		for a, d := range c.Resources {
			f.Cost.Resources[a] = d.FloatString(2)
		}
	}
	t := m.Total
	f.Counts = FactCounts{Add: t.Add, Change: t.Change, Destroy: t.Destroy, Import: t.Import, Forget: t.Forget,
		Replace: m.Replaced(), Read: m.Counts[diff.Read]}
	for _, c := range m.Scan.Changes {
		if !c.Shown() {
			continue
		}
		if c.Moved {
			f.Counts.Move++
			f.Addresses["move"] = append(f.Addresses["move"], c.Address)
		}
		if c.Importing {
			f.Addresses["import"] = append(f.Addresses["import"], c.Address)
		}
		if name, ok := summaryActionNames[c.Action]; ok {
			f.Addresses[name] = append(f.Addresses[name], c.Address)
		}
		if IsRisky(c.Action) || c.Action == diff.ForgetThenCreate || c.Action == diff.CreateThenForget {
			r := ReplaceReason{Reason: c.Reason}
			for _, p := range c.ReplacePaths {
				r.Attributes = append(r.Attributes, path(p))
			}
			f.ReplaceReasons[c.Address] = r
		}
	}
	f.OutputsChanged = append(f.OutputsChanged, m.ChangedOutputs()...)
	for _, c := range m.FailedChecks() {
		f.FailedChecks = append(f.FailedChecks, c.Address)
	}
	if failure != NoFailure {
		f.Warnings = append(f.Warnings, failure.String())
	}
	if f.Counts.Destroy > 0 {
		f.Warnings = append(f.Warnings, "resources will be destroyed")
	}
	if len(f.FailedChecks) > 0 {
		f.Warnings = append(f.Warnings, "checks failed")
	}
	return f
}
