package tofujson

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
)

// SeveralPlansError says that a plan file holds more than one JSON
// document, one after another: `terragrunt run-all show -json` writes one
// plan per module that way, and `cat a.json b.json` does too. The plan
// reader returns it when the first document is followed by another, so a
// file with one plan costs nothing extra; the caller splits the file with
// SplitPlans and reads each part as a plan of its own.
type SeveralPlansError struct {
	File string
}

func (e *SeveralPlansError) Error() string {
	return e.File + ": several JSON documents one after another (as `terragrunt run-all show -json` writes them): read each as a plan of its own"
}

// PlanPart is one document of a file that holds several: Path names it
// (the original's path and the document's number, NAME#N), and the run's
// Files read it as a file of its own until the split is released; Line and Column
// are where it starts in the original, so that an error in the part can
// name its place there.
type PlanPart struct {
	Path         string
	Line, Column int
}

// Locate turns an error located in the part into one located in the
// original file, named file.
func (p PlanPart) Locate(err error, file string) error {
	var ie *InputError
	if !errors.As(err, &ie) || ie.File != p.Path {
		return err
	}
	out := *ie
	out.File = file
	if out.Line > 0 {
		if out.Line == 1 {
			out.Column += p.Column - 1
		}
		out.Line += p.Line - 1
	}
	return &out
}

// SplitPlans finds each JSON document of the file at path and makes it
// readable through fs as a part of its own, without copying it: one pass
// over the file, holding no document in memory, checking only the JSON
// syntax (each part is then read like any plan). Errors name the original
// file. release forgets the parts; call it once done with them, even on
// error.
func (fs *Files) SplitPlans(path string) (found []PlanPart, release func(), err error) {
	release = func() {}
	if fs == nil {
		return nil, release, &InputError{File: path, Msg: "several plans in one file are read through the run's open files, and none were given"}
	}
	f, err := fs.Open(path)
	if err != nil {
		return nil, release, err
	}
	release = func() {
		var names []string
		for _, p := range found {
			names = append(names, p.Path)
		}
		fs.dropParts(names)
		f.Close()
	}
	dec := jsontext.NewDecoder(bufio.NewReaderSize(io.NewSectionReader(f, 0, 1<<62), 1<<18), jsontext.AllowDuplicateNames(true))
	docs, err := jsonread.Documents(dec, f)
	if notObject := (*jsonread.ErrNotObject)(nil); errors.As(err, &notObject) {
		return nil, release, ErrorAt(path, notObject.Offset, fmt.Sprintf("document %d is not a JSON object: each document of a file of several plans is a plan", notObject.Index+1))
	} else if err != nil {
		return nil, release, (&reader{path: path, dec: dec}).fail(err)
	}
	pos := jsonread.Position{Line: 1, Column: 1}
	buf := make([]byte, 32<<10) // one for every part's count of lines
	for _, d := range docs {
		// The part keeps its leading blank space, so that its first line
		// and column are the original's pos.
		part := PlanPart{Path: fmt.Sprintf("%s#%d", path, len(found)+1), Line: pos.Line, Column: pos.Column}
		if _, err := io.CopyBuffer(&pos, io.NewSectionReader(f, d.Start, d.End-d.Start), buf); err != nil {
			return nil, release, &InputError{File: path, Msg: "splitting its plans: " + err.Error()}
		}
		fs.addPart(part.Path, io.NewSectionReader(f, d.Start, d.End-d.Start))
		found = append(found, part)
	}
	return found, release, nil
}
