package streamreport

import (
	"fmt"
	"github.com/planpr/planpr/render/findings"
	"path"
	"strings"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/review"
)

// Annotation marks a line of a file in the repository, for a check run:
// a diagnostic of the streams where it points, or a lock-file alert or
// warning on its provider's block.
type Annotation struct {
	Path    string // in the repository, slash-separated
	Line    int
	Level   string // failure, warning or notice
	Title   string
	Message string
}

// Annotations are a comment's located problems, masked: the streams'
// diagnostics of a root module whose place in the repository is known
// (the tools name files from there), then the lock files' alerts and
// warnings. A file outside the repository is not marked.
func Annotations(modules []*review.Module, locks []*lockdiff.FileDiff, m *mask.Masker) []Annotation {
	var out []Annotation
	for _, s := range modules {
		if s.Root == "" {
			continue
		}
		for _, st := range s.Streams {
			for _, d := range st.Diagnostics {
				if d.Range == nil || d.Range.Start.Line < 1 {
					continue
				}
				p := path.Clean(path.Join(s.Root, d.Range.Filename))
				if path.IsAbs(d.Range.Filename) || p == ".." || strings.HasPrefix(p, "../") {
					continue
				}
				level := "warning"
				if d.Severity == "error" {
					level = "failure"
				}
				out = append(out, Annotation{Path: p, Line: d.Range.Start.Line, Level: level,
					Title: m.Quiet(d.Summary), Message: m.Quiet(strings.TrimSpace(d.Summary + "\n\n" + d.Detail))})
			}
		}
	}
	out = append(out, findingAnnotations(modules, m)...)
	for _, fd := range locks {
		for _, p := range fd.Providers {
			if p.After == nil || p.After.DeclRange.Start.Line < 1 {
				continue
			}
			for _, f := range p.Findings {
				level := ""
				switch {
				case f.Severity.Rank() >= lockdiff.Alert.Rank():
					level = "failure"
				case f.Severity.Rank() >= lockdiff.Warning.Rank():
					level = "warning"
				default:
					continue
				}
				out = append(out, Annotation{Path: fd.Path, Line: p.After.DeclRange.Start.Line, Level: level,
					Title: "planpr: " + string(f.Severity) + " on " + p.Address.Short(), Message: m.Quiet(f.Message)})
			}
		}
	}
	return out
}

// findingAnnotations mark the scanners' findings on the changes a plan
// shows, at their files and lines in the repository (a root's place
// known), once per rule and line: critical and high as failures, medium
// as warnings, the rest as notices.
func findingAnnotations(modules []*review.Module, m *mask.Masker) []Annotation {
	var out []Annotation
	seen := map[string]bool{}
	for _, s := range modules {
		if s.Root == "" || s.Findings == nil {
			continue
		}
		for _, c := range s.Findings.OnChanges {
			for _, f := range c.Findings {
				p := path.Clean(path.Join(s.Root, f.File))
				if f.File == "" || f.Line < 1 || path.IsAbs(f.File) || p == ".." || strings.HasPrefix(p, "../") {
					continue
				}
				key := fmt.Sprintf("%s:%d %s %s", p, f.Line, f.Tool, f.RuleID)
				if seen[key] {
					continue
				}
				seen[key] = true
				level := "notice"
				switch {
				case f.Severity >= findings.High:
					level = "failure"
				case f.Severity == findings.Medium:
					level = "warning"
				}
				title := f.RuleID
				if f.Tool != "" {
					title = f.Tool + ": " + f.RuleID
				}
				out = append(out, Annotation{Path: p, Line: f.Line, Level: level,
					Title: m.Quiet(f.Severity.String() + " " + title), Message: m.Quiet(strings.TrimSpace(f.Message + "\n\n" + f.HelpURI))})
			}
		}
	}
	return out
}
