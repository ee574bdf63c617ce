package render

import (
	"encoding/json"
	"reflect"

	txt "github.com/planpr/planpr/render/text"

	"io"
	"sort"

	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"

	"github.com/planpr/planpr/render/diff"
)

// SummaryCounts are a plan's numbers for workflows to branch on.
type SummaryCounts struct {
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

// PlanSummary is the machine summary of one plan.
type PlanSummary struct {
	Name           string                   `json:"name"`
	Path           string                   `json:"path"`
	Counts         SummaryCounts            `json:"counts"`
	Addresses      map[string][]string      `json:"addresses"`
	ReplaceReasons map[string]ReplaceReason `json:"replace_reasons"`
	Drift          []string                 `json:"drift"`
	OutputsChanged []string                 `json:"outputs_changed"`
	Errored        bool                     `json:"errored"`
	FailedChecks   []string                 `json:"failed_checks"`
	Warnings       []string                 `json:"warnings"`
	Streams        []StreamFacts            `json:"streams"`
}

// StreamFacts is what a UI stream adds to a plan's summary.
type StreamFacts struct {
	Path          string                  `json:"path"`
	Version       string                  `json:"version"`
	ChangeSummary *tofujson.ChangeSummary `json:"change_summary"`
	Planned       []StreamFactItem        `json:"planned"`
	Applies       []ApplyFact             `json:"applies"`
	Diagnostics   []DiagnosticFact        `json:"diagnostics"`
	Tests         []TestFact              `json:"tests"`
	TestSummary   *tofujson.TestSummary   `json:"test_summary"`
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

func streamFacts(st *review.StreamSummary, masker *mask.Masker) StreamFacts {
	f := StreamFacts{Path: st.Path, Version: st.Info.Version, ChangeSummary: st.Changes, TestSummary: st.TestSummary,
		Planned: []StreamFactItem{}, Applies: []ApplyFact{}, Diagnostics: []DiagnosticFact{}, Tests: []TestFact{},
		Outputs: map[string]OutputFact{}, Truncated: st.Info.Truncated}
	for _, it := range st.Planned {
		f.Planned = append(f.Planned, StreamFactItem{it.Address, it.Action, it.Reason})
	}
	for _, a := range st.Applies {
		f.Applies = append(f.Applies, ApplyFact{a.Address, a.Action, a.Status, a.Elapsed})
	}
	diag := func(d *tofujson.Diagnostic) DiagnosticFact {
		df := DiagnosticFact{Severity: d.Severity, Summary: masker.Mask(d.Summary), Detail: masker.Mask(d.Detail)}
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
	diff.DeleteThenCreate: "replace", diff.CreateThenDelete: "replace", diff.ForgetThenCreate: "replace",
	diff.Read: "read", diff.Forget: "forget",
}

// Summary writes the plans' machine summary as JSON: counts, addresses by
// action, why things are replaced, drift, changed outputs, failures.
func Summary(w io.Writer, plans []CommentPlan, o review.PlanOptions) error {
	if o.Mode == "" {
		o.Mode = review.ModeNormal
	}
	doc := struct {
		FormatVersion string        `json:"format_version"`
		Counts        SummaryCounts `json:"counts"`
		HasChanges    bool          `json:"has_changes"`
		Errored       bool          `json:"errored"`
		Plans         []PlanSummary `json:"plans"`
	}{FormatVersion: "1.0", Plans: []PlanSummary{}}
	masker := mask.NewMasker()
	for _, p := range plans {
		so := CommentOptions{PlanOptions: o, keepAll: true} // no diffs: no size
		s, err := newSection(p, so, []CommentOptions{so}, masker)
		if err != nil {
			return err
		}
		scan := s.scan
		ps := PlanSummary{Name: s.name, Path: p.Path, Addresses: map[string][]string{}, ReplaceReasons: map[string]ReplaceReason{},
			Drift: []string{}, OutputsChanged: []string{}, FailedChecks: []string{}, Warnings: []string{}, Errored: s.errored(), Streams: []StreamFacts{}}
		for _, st := range s.streams {
			ps.Streams = append(ps.Streams, streamFacts(st, masker))
		}
		ps.Counts = SummaryCounts{Add: s.total.Add, Change: s.total.Change, Destroy: s.total.Destroy, Import: s.total.Import, Forget: s.total.Forget,
			Replace: s.counts[diff.DeleteThenCreate] + s.counts[diff.CreateThenDelete] + s.counts[diff.ForgetThenCreate], Read: s.counts[diff.Read]}
		for _, c := range scan.Changes {
			if !c.Shown() {
				continue
			}
			if c.Moved {
				ps.Counts.Move++
				ps.Addresses["move"] = append(ps.Addresses["move"], c.Address)
			}
			if c.Importing {
				ps.Addresses["import"] = append(ps.Addresses["import"], c.Address)
			}
			if name, ok := summaryActionNames[c.Action]; ok {
				ps.Addresses[name] = append(ps.Addresses[name], c.Address)
			}
			if review.IsRisky(c.Action) || c.Action == diff.ForgetThenCreate {
				r := ReplaceReason{Reason: c.Reason}
				for _, path := range c.ReplacePaths {
					r.Attributes = append(r.Attributes, maskedPath(masker, path))
				}
				ps.ReplaceReasons[c.Address] = r
			}
		}
		for name, oc := range scan.Plan.OutputChanges {
			if diff.ForOutput(&oc).Action != diff.NoOp {
				ps.OutputsChanged = append(ps.OutputsChanged, name)
			}
		}
		sort.Strings(ps.OutputsChanged)
		if scan.HasDrift && p.Path != "" {
			entries, err := txt.DriftEntries(o, scan, len(ps.OutputsChanged) > 0, review.IndexConfiguration(scan.Plan.Configuration))
			if err != nil {
				return err
			}
			for _, e := range entries {
				ps.Drift = append(ps.Drift, e.Address)
			}
		}
		for _, c := range scan.Plan.Checks {
			for _, inst := range c.Instances {
				if inst.Status == "fail" || inst.Status == "error" {
					ps.FailedChecks = append(ps.FailedChecks, inst.Address.ToDisplay)
				}
			}
		}
		if f := s.failure(); f != "" {
			ps.Warnings = append(ps.Warnings, f)
		}
		if ps.Counts.Destroy > 0 {
			ps.Warnings = append(ps.Warnings, "resources will be destroyed")
		}
		if len(ps.FailedChecks) > 0 {
			ps.Warnings = append(ps.Warnings, "checks failed")
		}
		doc.Counts.Add += ps.Counts.Add
		doc.Counts.Change += ps.Counts.Change
		doc.Counts.Destroy += ps.Counts.Destroy
		doc.Counts.Replace += ps.Counts.Replace
		doc.Counts.Import += ps.Counts.Import
		doc.Counts.Forget += ps.Counts.Forget
		doc.Counts.Read += ps.Counts.Read
		doc.Counts.Move += ps.Counts.Move
		doc.HasChanges = doc.HasChanges || s.hasChanges() || len(ps.OutputsChanged) > 0
		doc.Errored = doc.Errored || ps.Errored
		doc.Plans = append(doc.Plans, ps)
	}
	maskStrings(reflect.ValueOf(&doc).Elem(), masker)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// maskStrings masks every string in v in place — fields, elements, map
// keys and values — so no part of the summary shows a secret: values are
// masked one by one, before they are encoded.
func maskStrings(v reflect.Value, m *mask.Masker) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(m.Mask(v.String()))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			maskStrings(v.Elem(), m)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				maskStrings(v.Field(i), m)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			maskStrings(v.Index(i), m)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		masked := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			k := reflect.New(v.Type().Key()).Elem()
			k.Set(iter.Key())
			maskStrings(k, m)
			val := reflect.New(v.Type().Elem()).Elem()
			val.Set(iter.Value())
			maskStrings(val, m)
			masked.SetMapIndex(k, val)
		}
		v.Set(masked)
	}
}
