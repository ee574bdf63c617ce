package review

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/planpr/planpr/flavor"

	"github.com/planpr/planpr/render/internal/words"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/tofujson"
	"github.com/planpr/planpr/render/tofujson/uistream"
)

// StreamSummary is what one machine-readable UI stream says: planned
// changes, apply results, outputs, diagnostics and test results, linked by
// resource address.
type StreamSummary struct {
	Path        string
	Info        *uistream.StreamInfo
	Changes     *uistream.ChangeSummary // the last change_summary
	Planned     []StreamItem
	Drift       []StreamItem
	Applies     []*ApplyResult
	Outputs     map[string]uistream.StreamOutput
	Diagnostics []*uistream.Diagnostic
	Tests       []*TestFile
	TestSummary *uistream.TestSummary
	Cleanup     []string      // resources a test could not destroy
	Other       []string      // the @message of message types planpr does not know
	Flavor      flavor.Flavor // the tool that wrote the stream, from its messages
}

// StreamItem is a planned change or drift.
type StreamItem struct {
	Address, Previous, Action, Reason string
}

// ApplyResult is one resource operation of an apply.
type ApplyResult struct {
	Address, Action string
	Status          string // started, complete, errored
	IDKey, IDValue  string
	Elapsed         float64
	Provisioners    []*ProvisionerResult
	Diagnostics     []*uistream.Diagnostic
}

// ProvisionerResult is one provisioner run.
type ProvisionerResult struct {
	Name    string
	Output  []string
	Errored bool
}

// TestFile is one test file with its runs.
type TestFile struct {
	Path, Status string
	Runs         []*TestRun
	Diagnostics  []*uistream.Diagnostic // not tied to a run
}

// TestRun is one run block.
type TestRun struct {
	Name, Status string
	Diagnostics  []*uistream.Diagnostic
}

// ReadStream summarises a UI stream file.
func ReadStream(inputs *tofujson.Files, path string) (*StreamSummary, error) {
	s := &StreamSummary{Path: path}
	applies := map[string]*ApplyResult{}
	apply := func(h *uistream.Hook) *ApplyResult {
		a := applies[h.Resource.Addr]
		if a == nil {
			a = &ApplyResult{Address: h.Resource.Addr, Action: h.Action, Status: "started"}
			applies[h.Resource.Addr] = a
			s.Applies = append(s.Applies, a)
		}
		if h.Action != "" {
			a.Action = h.Action
		}
		return a
	}
	files := map[string]*TestFile{}
	file := func(path string) *TestFile {
		f := files[path]
		if f == nil {
			f = &TestFile{Path: path}
			files[path] = f
			s.Tests = append(s.Tests, f)
		}
		return f
	}
	type runKey struct {
		file *TestFile
		name string
	}
	runs := map[runKey]*TestRun{} // a stream may hold 200,000 runs
	run := func(f *TestFile, name string) *TestRun {
		k := runKey{f, name}
		if r := runs[k]; r != nil {
			return r
		}
		r := &TestRun{Name: name}
		runs[k] = r
		f.Runs = append(f.Runs, r)
		return r
	}
	info, err := uistream.ReadStreamFile(inputs, path, func(m *uistream.Message) error {
		if s.Flavor == flavor.Unknown {
			s.Flavor = uistream.Flavor(m.Module, m.Text)
		}
		switch m.Type {
		case "version", "log", "apply_progress", "refresh_start", "refresh_complete", "test_plan", "test_state":
			// progress only
		case "diagnostic":
			if m.Diagnostic == nil {
				return nil
			}
			switch {
			case m.TestFile != "" && m.TestRun != "":
				r := run(file(m.TestFile), m.TestRun)
				r.Diagnostics = append(r.Diagnostics, m.Diagnostic)
			case m.TestFile != "":
				f := file(m.TestFile)
				f.Diagnostics = append(f.Diagnostics, m.Diagnostic)
			default:
				s.Diagnostics = append(s.Diagnostics, m.Diagnostic)
				if a := applies[m.Diagnostic.Address]; a != nil {
					a.Diagnostics = append(a.Diagnostics, m.Diagnostic)
				}
			}
		case "planned_change", "resource_drift":
			if m.Change == nil {
				return nil
			}
			it := StreamItem{Address: m.Change.Resource.Addr, Action: m.Change.Action, Reason: m.Change.Reason}
			if m.Change.PreviousResource != nil {
				it.Previous = m.Change.PreviousResource.Addr
			}
			if m.Type == "planned_change" {
				s.Planned = append(s.Planned, it)
			} else {
				s.Drift = append(s.Drift, it)
			}
		case "change_summary":
			s.Changes = m.Changes
		case "outputs":
			s.Outputs = m.Outputs
		case "apply_start":
			if m.Hook != nil {
				apply(m.Hook)
			}
		case "apply_complete", "apply_errored":
			if m.Hook == nil {
				return nil
			}
			a := apply(m.Hook)
			a.Status = "complete"
			if m.Type == "apply_errored" {
				a.Status = "errored"
			}
			a.IDKey, a.IDValue, a.Elapsed = m.Hook.IDKey, m.Hook.IDValue, m.Hook.ElapsedSeconds
		case "provision_start", "provision_progress", "provision_complete", "provision_errored":
			if m.Hook == nil {
				return nil
			}
			a := apply(m.Hook)
			var p *ProvisionerResult
			for _, q := range a.Provisioners {
				if q.Name == m.Hook.Provisioner {
					p = q
				}
			}
			if p == nil {
				p = &ProvisionerResult{Name: m.Hook.Provisioner}
				a.Provisioners = append(a.Provisioners, p)
			}
			if m.Type == "provision_progress" {
				p.Output = append(p.Output, m.Hook.Output)
			}
			if m.Type == "provision_errored" {
				p.Errored = true
			}
		case "test_abstract":
			for _, path := range slices.Sorted(maps.Keys(m.Abstract)) {
				f := file(path)
				for _, r := range m.Abstract[path] {
					run(f, r)
				}
			}
		case "test_file":
			if m.File != nil {
				file(m.File.Path).Status = m.File.Status
			}
		case "test_run":
			if m.Run != nil {
				run(file(m.Run.Path), m.Run.Run).Status = m.Run.Status
			}
		case "test_summary":
			s.TestSummary = m.Summary
		case "test_cleanup":
			if m.Cleanup != nil {
				for _, r := range m.Cleanup.FailedResources {
					s.Cleanup = append(s.Cleanup, r.Instance)
				}
			}
		default:
			// Unknown message types are not errors: show what they say.
			s.Other = append(s.Other, m.Text)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.Info = info
	return s, nil
}

// AddSecrets records the stream's sensitive output values, which the
// stream carries in clear.
func (s *StreamSummary) AddSecrets(m *mask.Masker) {
	for name, o := range s.Outputs {
		if o.Sensitive || mask.CredentialName(name) {
			m.AddValue(o.Value)
		} else {
			m.AddNameKeyed(o.Value)
		}
	}
}

// Outcome says what failed in streams, as a title says it first: "Apply
// failed: 2 of 5 resources", "Tests: 3 failed of 12", or "Plan failed"
// for errors in a plan's (or validation's) stream; "" when nothing failed.
func Outcome(streams []*StreamSummary) string {
	var applied, applyFailed, tests, testsFailed int
	failed := false
	for _, st := range streams {
		failed = failed || st.Failed()
		for _, a := range st.Applies {
			if a.Action == "read" {
				continue
			}
			applied++
			if a.Status == "errored" {
				applyFailed++
			}
		}
		if t := st.TestSummary; t != nil {
			tests += t.Passed + t.Failed + t.Errored + t.Skipped
			testsFailed += t.Failed + t.Errored
		}
	}
	var parts []string
	if applyFailed > 0 {
		parts = append(parts, fmt.Sprintf("Apply failed: %d of %d %s", applyFailed, applied, words.Plural(applied, "resource")))
	}
	if testsFailed > 0 {
		parts = append(parts, fmt.Sprintf("Tests: %d failed of %d", testsFailed, tests))
	}
	if len(parts) == 0 && failed {
		return "Plan failed"
	}
	return strings.Join(parts, "; ")
}

// Failed reports whether anything in the stream failed.
func (s *StreamSummary) Failed() bool {
	for _, d := range s.Diagnostics {
		if d.Severity == "error" {
			return true
		}
	}
	for _, a := range s.Applies {
		if a.Status == "errored" {
			return true
		}
	}
	return s.TestSummary != nil && (s.TestSummary.Failed > 0 || s.TestSummary.Errored > 0)
}

// IsApply reports whether the UI stream at path, one of the run's files,
// is an apply's (`tofu apply -json`, `tofu destroy -json`), by its
// messages: a resource's apply began, ended or failed, or the stream's
// own summary counts an apply's or a destroy's changes. An apply that
// fails before its summary is one: its apply_start and apply_errored
// say so. It stops reading at the first such message.
func IsApply(files *tofujson.Files, path string) (bool, error) {
	found := false
	_, err := uistream.ReadStreamFile(files, path, func(m *uistream.Message) error {
		switch {
		case m.Type == "apply_start" || m.Type == "apply_progress" || m.Type == "apply_complete" || m.Type == "apply_errored",
			m.Type == "change_summary" && m.Changes != nil && (m.Changes.Operation == "apply" || m.Changes.Operation == "destroy"):
			found = true
			return errStopStream
		}
		return nil
	})
	if errors.Is(err, errStopStream) {
		err = nil
	}
	return found, err
}

// errStopStream ends a read that has found what it looked for.
var errStopStream = errors.New("stop")
