// Package inputs owns a run's input files: Open opens each once (a Set
// holds them, and every read of the run goes through it) and decides,
// once, what each is — a plan (`tofu show -json PLANFILE`), a state,
// provider schemas, a UI stream (`tofu plan/apply/test -json`), or a
// scanner's SARIF report — by its content. Nothing else sniffs a file's kind.
package inputs

import (
	"os"
	"path/filepath"

	"github.com/planpr/planpr/render/tofujson"
	"github.com/planpr/planpr/render/tofujson/uistream"
)

// Kind is what an input file is.
type Kind string

const (
	Plan    Kind = "plan"
	State   Kind = "state"
	Schemas Kind = "schemas"
	Stream  Kind = "stream"
	// Findings is a scanner's report (SARIF 2.1.0), placed on the
	// resources of the plans it is about.
	Findings Kind = "findings"
	// Cost is an Infracost report: the plan's monthly cost.
	Cost Kind = "cost"
	// Policy is a policy engine's verdicts over the plan (conftest's or
	// opa eval's JSON).
	Policy Kind = "policy"
)

// File is an input file and what it is.
type File struct {
	Path string
	Kind Kind
}

// Set is a run's inputs: the files given, each classified, and the open
// files every read of the run goes through. Close it when the run is
// done.
type Set struct {
	Files []File
	open  *tofujson.Files
}

// Open classifies each of paths, in order, opening each once; the files
// stay open for the run's reads until Close. A file that is none of the
// kinds is an error naming it, and nothing stays open.
func Open(paths []string) (*Set, error) {
	s := NewSet()
	if err := s.Add(paths); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// NewSet is an empty set of inputs: Add gives it its files.
func NewSet() *Set { return &Set{open: tofujson.NewFiles()} }

// Add classifies each of paths, in order, and adds it to the set.
func (s *Set) Add(paths []string) error {
	for _, p := range paths {
		kind, err := s.Classify(p)
		if err != nil {
			return err
		}
		s.Files = append(s.Files, File{Path: p, Kind: kind})
	}
	return nil
}

// Classify says what the file at path is, from the least of it that
// tells: a stream's first line, or a JSON document's first top-level
// names. The file joins the set's open files.
func (s *Set) Classify(path string) (Kind, error) { return Classify(s.open, path) }

// Classify says what the file at path, one of a run's open files, is.
func Classify(files *tofujson.Files, path string) (Kind, error) {
	if uistream.IsStream(files, path) {
		return Stream, nil
	}
	kind, err := files.DocumentKind(path)
	if err != nil {
		return "", err
	}
	return Kind(kind), nil
}

// Open are the run's open files, for every read: each is opened once.
func (s *Set) Open() *tofujson.Files { return s.open }

// Paths are the paths of the files of a kind, in order.
func (s *Set) Paths(kind Kind) []string {
	var paths []string
	for _, f := range s.Files {
		if f.Kind == kind {
			paths = append(paths, f.Path)
		}
	}
	return paths
}

// SchemasBeside finds the provider schemas each plan came with: among
// given (schemas files a run was handed, say by a glob), one in the plan's
// directory, else a schemas.json beside the plan, when it is schemas
// (told by its content). Plans without are left out.
func SchemasBeside(files *tofujson.Files, plans, given []string) map[string]string {
	out := map[string]string{}
	for _, p := range plans {
		if p == "" {
			continue
		}
		dir := filepath.Dir(p)
		for _, s := range given {
			if filepath.Dir(s) == dir {
				out[p] = s
				break
			}
		}
		if _, ok := out[p]; ok {
			continue
		}
		beside := filepath.Join(dir, "schemas.json")
		if beside == filepath.Clean(p) {
			continue
		}
		if st, err := os.Stat(beside); err != nil || !st.Mode().IsRegular() {
			continue
		}
		if kind, err := Classify(files, beside); err == nil && kind == Schemas {
			out[p] = beside
		}
	}
	return out
}

// Close closes the run's files.
func (s *Set) Close() error { return s.open.Close() }
