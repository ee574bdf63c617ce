package tofujson

import (
	"bytes"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"
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
// needs its own.
type ChangeReader struct {
	path string
	f    io.ReaderAt
	// buf holds the bytes of the file from offset at: changes read in
	// order come from one read.
	buf []byte
	at  int64
	dec *jsontext.Decoder
	t   trusted
}

// readAhead is how much a ChangeReader reads at once: a few changes.
const readAhead = 64 << 10

// NewChangeReader reads the plan at path through f, which must be that file.
func NewChangeReader(path string, f io.ReaderAt) *ChangeReader {
	return &ChangeReader{path: path, f: f, dec: jsontext.NewDecoder(bytes.NewReader(nil))}
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

// Read decodes the resource change at span into rc. The values are the
// reader's own, safe to keep after the next Read.
func (cr *ChangeReader) Read(span Span, rc *ResourceChange) error {
	n := int(span.End - span.Start)
	if n <= 0 {
		return errorAt(cr.path, span.Start, "no resource change here")
	}
	buf, err := cr.bytes(span.Start, n)
	if err != nil {
		return &InputError{File: cr.path, Msg: fmt.Sprintf("reading the resource change at byte %d again: %v", span.Start, err)}
	}
	data := bytes.TrimLeft(buf, " \t\r\n")
	if len(data) > 0 && data[0] == ',' {
		data = bytes.TrimLeft(data[1:], " \t\r\n")
	}
	lead := len(buf) - len(data)
	// One copy of the change as a string holds every string of its values.
	src := string(data)
	cr.t.reset(src)
	*rc = ResourceChange{}
	if err := cr.t.resourceChange(rc); err == nil {
		rc.Span = span
		return nil
	}
	// Not what the first pass read: decode it again, checking everything,
	// to say what is wrong (or to decode what trusted leaves to jsontext).
	// A bytes.Buffer lets jsontext parse the bytes in place.
	cr.dec.Reset(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true))
	r := &reader{path: cr.path, dec: cr.dec, src: src}
	*rc = ResourceChange{}
	if err := r.resourceChange(rc); err != nil {
		// The first pass checked these bytes: the file changed under us.
		return errorAt(cr.path, span.Start+int64(lead), fmt.Sprintf("the resource change no longer reads as it did (was the file changed while planpr read it?): %v", err))
	}
	rc.Span = span
	return nil
}
