package jsonread

import (
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// Document is where one of several JSON documents of a text begins and
// ends, its leading blank space included.
type Document struct{ Start, End int64 }

// ErrNotObject is a document that is not a JSON object among documents
// that must be: the Index-th (from 0), whose text begins at Offset.
type ErrNotObject struct {
	Index  int
	Offset int64
}

func (e *ErrNotObject) Error() string { return "a document is not a JSON object" }

// Documents finds each JSON object dec reads, one after another, in one
// pass that checks only their syntax and holds none in memory; text, what
// dec reads, finds where a document that is no object begins. A broken
// document is dec's error.
func Documents(dec *jsontext.Decoder, text io.ReaderAt) ([]Document, error) {
	var found []Document
	var start int64
	for {
		switch dec.PeekKind() {
		case 0: // the end, or text that is no JSON value: ReadToken says which
			if _, err := dec.ReadToken(); err != io.EOF {
				return nil, err
			}
			return found, nil
		case '{':
		default:
			if _, err := dec.ReadToken(); err != nil {
				return nil, err
			}
			return nil, &ErrNotObject{Index: len(found), Offset: start + LeadingSpace(text, start)}
		}
		if err := dec.SkipValue(); err != nil {
			return nil, err
		}
		end := dec.InputOffset()
		found = append(found, Document{start, end})
		start = end
	}
}
