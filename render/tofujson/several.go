package tofujson

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
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

// PlanPart is one document of a file that holds several: Path is a file
// holding that document alone; Line and Column are where it starts in the
// original, so that an error in the part can name its place there.
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

// SplitPlans writes each JSON document of the file at path to a file of
// its own in dir, named after the original and the document's number. It
// reads the file once, holding no document in memory, and checks only the
// JSON syntax: each part is then read like any plan. Errors name the
// original file.
func SplitPlans(path, dir string) ([]PlanPart, error) {
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := jsontext.NewDecoder(bufio.NewReaderSize(f, 1<<18), jsontext.AllowDuplicateNames(true))
	r := &reader{path: path, dec: dec}
	pos := position{line: 1, column: 1}
	var parts []PlanPart
	var start int64
	for {
		if dec.PeekKind() == 0 {
			// End of input, or text that is no JSON value: ReadToken says which.
			if _, err := dec.ReadToken(); err != io.EOF {
				return nil, r.fail(err)
			}
			break
		}
		if dec.PeekKind() != '{' {
			if _, err := dec.ReadToken(); err != nil {
				return nil, r.fail(err)
			}
			return nil, errorAt(path, start+leadingSpace(f, start), fmt.Sprintf("document %d is not a JSON object: each document of a file of several plans is a plan", len(parts)+1))
		}
		if err := dec.SkipValue(); err != nil {
			return nil, r.fail(err)
		}
		end := dec.InputOffset()
		part, err := writePart(f, start, end, filepath.Join(dir, fmt.Sprintf("%d-%s", len(parts)+1, filepath.Base(path))), &pos)
		if err != nil {
			return nil, &InputError{File: path, Msg: "splitting its plans: " + err.Error()}
		}
		parts = append(parts, part)
		start = end
	}
	return parts, nil
}

// leadingSpace counts the blank bytes at off (up to a few KB).
func leadingSpace(f *os.File, off int64) int64 {
	buf := make([]byte, 4096)
	n, _ := f.ReadAt(buf, off)
	return int64(n - len(bytes.TrimLeft(buf[:n], " \t\r\n")))
}

// position is a line and column (in characters) of the original file.
type position struct{ line, column int }

// advance moves the position over b.
func (p *position) advance(b []byte) {
	for _, c := range b {
		switch {
		case c == '\n':
			p.line, p.column = p.line+1, 1
		case utf8.RuneStart(c):
			p.column++
		}
	}
}

// writePart copies bytes [start, end) of f to a new file at name, the
// leading blank space included, so that the part's first line and column
// are the original's pos.
func writePart(f *os.File, start, end int64, name string, pos *position) (PlanPart, error) {
	part := PlanPart{Path: name, Line: pos.line, Column: pos.column}
	out, err := os.Create(name)
	if err != nil {
		return part, err
	}
	w := io.MultiWriter(out, positionWriter{pos})
	_, err = io.Copy(w, io.NewSectionReader(f, start, end-start))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return part, err
}

type positionWriter struct{ pos *position }

func (w positionWriter) Write(b []byte) (int, error) {
	w.pos.advance(b)
	return len(b), nil
}
