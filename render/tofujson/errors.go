package tofujson

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
)

// InputError is a problem with an input file. Line and Column are 1-based
// and zero when the problem has no single position.
type InputError struct {
	File   string
	Line   int
	Column int
	Msg    string
}

func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// ErrorAt builds an InputError for a byte offset into the named file,
// turning the offset into a line and column by reading the file again.
func ErrorAt(path string, offset int64, msg string) *InputError {
	return (*Files)(nil).ErrorAt(path, offset, msg)
}

// ErrorAt is ErrorAt for one of the run's files (or a part of one).
func (fs *Files) ErrorAt(path string, offset int64, msg string) *InputError {
	line, col := fs.lineCol(path, offset)
	return &InputError{File: path, Line: line, Column: col, Msg: msg}
}

func (fs *Files) lineCol(path string, offset int64) (int, int) {
	f, err := fs.Open(path)
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	head, _ := io.ReadAll(io.LimitReader(f, offset))
	return jsonread.LineCol(head, offset)
}

// firstSyntaxError finds the offset of the first byte of r that is not
// valid JSON, and the error there. It decodes the whole document from its
// start, so it is only for the error path.
func firstSyntaxError(r io.Reader) (int64, error) {
	var raw json.RawMessage
	err := json.NewDecoder(r).Decode(&raw)
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		// The offset counts the offending byte itself.
		return max(syn.Offset-1, 0), syn
	}
	return 0, nil
}

// Text is an input opened for reading: from its start, or at offsets.
type Text interface {
	io.Reader
	io.ReaderAt
	io.Closer
}

// textSize is an opened input's size in bytes, or -1.
func textSize(t Text) int64 {
	switch t := t.(type) {
	case view:
		return t.Size()
	case *os.File:
		if st, err := t.Stat(); err == nil {
			return st.Size()
		}
	}
	return -1
}

// OpenFile opens an input for reading, afresh, having checked that it is
// a regular file: a directory, a FIFO (which would block until a writer
// comes) or a device is refused by name. Inputs are read more than once,
// at offsets, so they must be files. A run opens its inputs through Files,
// once each.
func OpenFile(path string) (Text, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: strings.TrimPrefix(strings.TrimPrefix(err.Error(), "stat "+path+": "), "open "+path+": ")}
	}
	switch {
	case st.IsDir():
		return nil, &InputError{File: path, Msg: "is a directory, not a file: name the JSON file in it"}
	case !st.Mode().IsRegular():
		return nil, &InputError{File: path, Msg: "not a regular file (a pipe or a device): planpr reads its inputs more than once; write the JSON to a file first, e.g. `tofu show -json PLANFILE > plan.json`"}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: strings.TrimPrefix(err.Error(), "open "+path+": ")}
	}
	return utf8Text(path, f)
}

// ReadFile reads a whole input of the run's files.
func (fs *Files) ReadFile(path string) ([]byte, error) {
	f, err := fs.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, &InputError{File: path, Msg: err.Error()}
	}
	return b, nil
}

// duplicateMember refuses a document member given twice: the second would
// silently replace the first (a second "resource_changes" read as "no
// changes").
func duplicateMember(path string, offset int64, key, what string) error {
	return ErrorAt(path, offset-int64(len(key))-2, fmt.Sprintf("%q appears twice in %s: the file is not what `tofu show -json` writes (two documents merged?)", key, what))
}
