package review

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/planpr/planpr/render/findings"
	"github.com/planpr/planpr/render/inputs"
	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/tofujson"
)

// Findings are a root's scanner findings, placed on its plan as the plan
// was read (see findings.Placer).
type Findings struct {
	// OnChanges are the changes the plan shows that have findings, in
	// the plan's order.
	OnChanges []ChangeFindings
	// Unchanged counts the findings on resources the plan leaves alone;
	// Unmatched are those on no resource of the plan (listed apart).
	Unchanged int
	Unmatched []findings.Finding
	// Dropped counts the findings past findings.MaxFindings, not read;
	// Denied the policy engines' denials, wherever they land.
	Dropped, Denied int
	// Problems are what could not be read of the configuration: its
	// findings then land by the addresses they name only.
	Problems []string
}

// ChangeFindings are the findings on one change the plan shows.
type ChangeFindings struct {
	Address  string
	Action   diff.Action
	Findings []findings.Finding
}

// AtLeast counts the findings on the plan's changes at sev or above.
func (f *Findings) AtLeast(sev findings.Severity) int {
	if f == nil {
		return 0
	}
	n := 0
	for _, c := range f.OnChanges {
		for _, x := range c.Findings {
			if x.Severity >= sev {
				n++
			}
		}
	}
	return n
}

// BySeverity counts the findings on the plan's changes by severity.
func (f *Findings) BySeverity() map[findings.Severity]int {
	out := map[findings.Severity]int{}
	if f == nil {
		return out
	}
	for _, c := range f.OnChanges {
		for _, x := range c.Findings {
			out[x.Severity]++
		}
	}
	return out
}

// placeFindings reads a root's reports: place puts them on each change
// as the plan is read (and returns the change's), and done, once the
// read is over, leaves in found what no change took.
func placeFindings(files *tofujson.Files, in inputs.Root) (place func(ChangeSummary) []findings.Finding, done func(), found *Findings, err error) {
	found = &Findings{}
	var all []findings.Finding
	for _, path := range in.Findings {
		data, err := readBounded(files, path, findings.MaxReportBytes)
		if err != nil {
			return nil, nil, nil, err
		}
		f, dropped, err := findings.ReadSARIF(path, data)
		if err != nil {
			return nil, nil, nil, err
		}
		all, found.Dropped = append(all, f...), found.Dropped+dropped
	}
	for _, path := range in.Policies {
		data, err := readBounded(files, path, findings.MaxReportBytes)
		if err != nil {
			return nil, nil, nil, err
		}
		f, err := findings.ReadPolicy(path, data)
		if err != nil {
			return nil, nil, nil, err
		}
		all = append(all, f...)
	}
	for _, f := range all {
		if f.Denied {
			found.Denied++
		}
	}
	var ix *findings.Index
	if dir := configDir(in); dir != "" {
		ix = findings.NewIndex(os.DirFS(dir))
		for _, d := range ix.Problems {
			found.Problems = append(found.Problems, d.Error())
		}
	}
	placer := findings.NewPlacer(all, ix)
	place = func(c ChangeSummary) []findings.Finding {
		fs := placer.For(c.Address)
		switch {
		case len(fs) == 0:
		case c.Shown():
			found.OnChanges = append(found.OnChanges, ChangeFindings{Address: c.Address, Action: c.Action, Findings: fs})
		default:
			found.Unchanged += len(fs)
		}
		return fs
	}
	done = func() { found.Unmatched = placer.Unmatched() }
	return place, done, found, nil
}

// configDir is where a root's configuration is: as given, else the
// plan's own directory when it holds configuration files.
func configDir(in inputs.Root) string {
	if in.Config != "" {
		return in.Config
	}
	if in.Path == "" {
		return ""
	}
	if dir := filepath.Dir(in.Path); inputs.HasConfig(dir) {
		return dir
	}
	return ""
}

// readBounded reads one of the run's files, at most max bytes.
func readBounded(files *tofujson.Files, path string, max int64) ([]byte, error) {
	f, err := files.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, &tofujson.InputError{File: path, Msg: err.Error()}
	}
	if int64(len(data)) > max {
		return nil, &tofujson.InputError{File: path, Msg: fmt.Sprintf("over %d bytes: a report that large is not read; scan less at once, or raise the scanner's minimum severity", max)}
	}
	return data, nil
}

// Facts are the findings as the machine summary lists them.
func (f *Findings) Facts() *FindingFacts {
	out := &FindingFacts{Counts: map[string]int{}, Resources: map[string][]FindingFact{}, Unchanged: f.Unchanged, Unmatched: []FindingFact{}, Dropped: f.Dropped}
	for sev, n := range f.BySeverity() {
		out.Counts[sev.String()] = n
	}
	for _, c := range f.OnChanges {
		for _, x := range c.Findings {
			out.Resources[c.Address] = append(out.Resources[c.Address], findingFact(x))
		}
	}
	for _, x := range f.Unmatched {
		out.Unmatched = append(out.Unmatched, findingFact(x))
	}
	return out
}

func findingFact(f findings.Finding) FindingFact {
	return FindingFact{Tool: f.Tool, Rule: f.RuleID, Severity: f.Severity.String(), Level: lockLevel(f.Severity), Message: f.Message, File: f.File, Line: f.Line, Help: f.HelpURI}
}

// readCost reads a root's Infracost reports, summed.
func readCost(files *tofujson.Files, paths []string) (*findings.Cost, error) {
	var total *findings.Cost
	for _, path := range paths {
		data, err := readBounded(files, path, findings.MaxReportBytes)
		if err != nil {
			return nil, err
		}
		c, err := findings.ReadInfracost(path, data)
		switch {
		case err != nil:
			return nil, err
		case total == nil:
			total = c
		default:
			if err := total.Add(c); err != nil {
				return nil, &tofujson.InputError{File: path, Msg: err.Error()}
			}
		}
	}
	return total, nil
}

// lockLevel is a finding's severity on the lock review's scale
// (lockdiff.Severity): critical and high are alerts, medium warnings,
// low notices.
func lockLevel(s findings.Severity) string {
	switch {
	case s >= findings.High:
		return "alert"
	case s == findings.Medium:
		return "warning"
	case s == findings.Low:
		return "notice"
	}
	return "info"
}
