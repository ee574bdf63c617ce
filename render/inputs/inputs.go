// Package inputs decides, once per run, what each input file is: a plan
// (`tofu show -json PLANFILE`), a state, provider schemas, or a UI stream
// (`tofu plan/apply/test -json`). Every runner asks it; nothing else
// sniffs a file's kind.
package inputs

import (
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
)

// File is an input file and what it is.
type File struct {
	Path string
	Kind Kind
}

// Classify says what the file at path is, from the least of it that
// tells: a stream's first line, or a JSON document's first top-level
// names. A file that is none of them is an error naming it.
func Classify(path string) (Kind, error) {
	if uistream.IsStream(path) {
		return Stream, nil
	}
	kind, err := tofujson.DocumentKind(path)
	if err != nil {
		return "", err
	}
	return Kind(kind), nil
}

// ClassifyAll classifies each path, in order.
func ClassifyAll(paths []string) ([]File, error) {
	files := make([]File, len(paths))
	for i, p := range paths {
		kind, err := Classify(p)
		if err != nil {
			return nil, err
		}
		files[i] = File{Path: p, Kind: kind}
	}
	return files, nil
}
