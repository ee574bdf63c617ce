package tofujson

import (
	"bytes"
	"fmt"
	"io"
	"strings"

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
// needs its own.
type ChangeReader struct {
	path string
	f    io.ReaderAt
	// buf holds the bytes of the file from offset at: changes read in
	// order come from one read.
	buf []byte
	at  int64
	dec *jsontext.Decoder
	t   jsonread.Decoder
}

// readAhead is how much a ChangeReader reads at once: a few changes.
const readAhead = 64 << 10

// NewChangeReader reads the plan at path through f, which must be that file.
func NewChangeReader(path string, f io.ReaderAt) *ChangeReader {
	return &ChangeReader{path: path, f: f, dec: jsontext.NewDecoder(bytes.NewReader(nil))}
}

// ReuseMemory makes the reader decode every change into memory it keeps
// for the next: the values of a change it reads (Before, After, their
// unknown and sensitive mirrors, ReplacePaths) are then valid only until
// its next Read. The resource change's names, address and actions are
// still its own. For callers that are done with each change before they
// read the next, like the text pipeline: they spare a fresh copy of every
// change and of its escaped strings.
func (cr *ChangeReader) ReuseMemory() {
	cr.t.ReuseMemory()
}

// reusing reports whether ReuseMemory was called: it gives the reader a slab.
func (cr *ChangeReader) reusing() bool { return cr.t.Reusing() }

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
		return ErrorAt(cr.path, span.Start, "no resource change here")
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
	// One copy of the change as a string holds every string of its values;
	// reusing memory, the read buffer itself does.
	if cr.reusing() {
		cr.t.FreeMemory()
	}
	src := string(data)
	cr.t.Reset(src)
	*rc = ResourceChange{}
	if err := (changeDecoder{&cr.t}).resourceChange(rc); err == nil {
		cr.own(rc)
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
		return ErrorAt(cr.path, span.Start+int64(lead), fmt.Sprintf("the resource change no longer reads as it did (was the file changed while planpr read it?): %v", err))
	}
	cr.own(rc)
	rc.Span = span
	return nil
}

// own copies the strings of rc other than its values out of the read
// buffer, when the reader reuses it: callers keep addresses and names.
func (cr *ChangeReader) own(rc *ResourceChange) {
	if !cr.reusing() {
		return
	}
	for _, s := range []*string{&rc.Address, &rc.PreviousAddress, &rc.ModuleAddress, &rc.Mode, &rc.Type,
		&rc.Name, &rc.Deposed, &rc.ProviderName, &rc.ActionReason, &rc.Change.GeneratedConfig} {
		*s = strings.Clone(*s)
	}
	for i := range rc.Change.Actions {
		rc.Change.Actions[i] = strings.Clone(rc.Change.Actions[i])
	}
	if rc.Change.Importing != nil {
		rc.Change.Importing.ID = strings.Clone(rc.Change.Importing.ID)
	}
}
