package tofujson

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
)

// Span is the byte range of one resource change in a plan file. It may
// start with the comma and spaces that separate it from the previous one.
type Span struct {
	Start, End int64
}

// A ChangeReader decodes resource changes by their Spans, values and all,
// reading each from the file on its own: a pass that skipped the values
// (ReadOptions.SkipValues) leaves the rest to readers that can run on
// other goroutines. It reuses its buffer and decoder, so each goroutine
// needs its own; the changes it decodes are their own.
type ChangeReader struct {
	path string
	f    io.ReaderAt
	// buf holds the bytes of the file from offset at: changes read in
	// order come from one read.
	buf []byte
	at  int64
	dec *jsontext.Decoder
}

// readAhead is how much a ChangeReader reads at once: a few changes.
const readAhead = 64 << 10

// NewChangeReader reads the plan at path through f, which must be that file.
func NewChangeReader(path string, f io.ReaderAt) *ChangeReader {
	return &ChangeReader{path: path, f: f, dec: jsontext.NewDecoder(bytes.NewReader(nil))}
}

// errorAt is an InputError at a byte offset of the reader's file, located
// by reading the file up to it.
func (cr *ChangeReader) errorAt(offset int64, msg string) *InputError {
	head, _ := io.ReadAll(io.NewSectionReader(cr.f, 0, max(offset, 0)))
	line, col := jsonread.LineCol(head, offset)
	return &InputError{File: cr.path, Line: line, Column: col, Msg: msg}
}

// bytes returns n bytes of the file from off, reading ahead when they are
// not already in buf.
func (cr *ChangeReader) bytes(off int64, n int) ([]byte, error) {
	if off >= cr.at && off+int64(n) <= cr.at+int64(len(cr.buf)) {
		return cr.buf[off-cr.at:][:n], nil
	}
	size := max(n, readAhead)
	if cap(cr.buf) < size {
		cr.buf = make([]byte, size)
	}
	got, err := cr.f.ReadAt(cr.buf[:size], off)
	cr.buf, cr.at = cr.buf[:got], off
	if got < n {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return cr.buf[:n], nil
}

// Read decodes the resource change at span into rc, checking it as the
// first pass did: a file changed between the two reads is an error, never
// a different change.
func (cr *ChangeReader) Read(span Span, rc *ResourceChange) error {
	n := int(span.End - span.Start)
	if n <= 0 {
		return cr.errorAt(span.Start, "no resource change here")
	}
	buf, err := cr.bytes(span.Start, n)
	if err != nil {
		return cr.errorAt(span.Start, fmt.Sprintf("reading the resource change again: %v", err))
	}
	data := bytes.TrimLeft(buf, " \t\r\n")
	if len(data) > 0 && data[0] == ',' {
		data = bytes.TrimLeft(data[1:], " \t\r\n")
	}
	lead := len(buf) - len(data)
	// One copy of the change as a string holds every string of its values
	// that needs no unescaping. A bytes.Buffer lets jsontext parse the
	// bytes in place.
	src := string(data)
	cr.dec.Reset(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true))
	r := &reader{dec: cr.dec, src: src} // no path: an error is located below, in the file
	*rc = ResourceChange{}
	err = r.resourceChange(rc)
	at := cr.dec.InputOffset()
	cr.dec.Reset(bytes.NewReader(nil)) // let go of the buffer
	if err != nil {
		msg := err.Error()
		var ie *InputError
		var syn *jsontext.SyntacticError
		switch {
		case errors.As(err, &ie):
			msg = ie.Msg
		case errors.As(err, &syn):
			at, msg = syn.ByteOffset, "invalid JSON: "+syn.Err.Error()
		}
		return cr.errorAt(span.Start+int64(lead)+at, "the resource change no longer reads as it did (was the file changed while planpr read it?): "+msg)
	}
	rc.Span = span
	return nil
}
