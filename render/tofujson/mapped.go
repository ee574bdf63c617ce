package tofujson

import (
	"bytes"
	"os"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
	"github.com/planpr/planpr/render/tofujson/internal/mapping"
)

// A plan is read fastest from memory, parsed in place. Where the platform
// can map the file (mapping.Map), ReadPlan does, and gives the pages back
// as the pass goes (drop), so the plan never counts whole against the
// process's memory.

// droppedEvery is how far the pass reads before it gives pages back.
const droppedEvery = 4 << 20

// dropLag is how far behind the read the pages given back end: borrowed
// values (ReadOptions.Borrow) are read on other goroutines a little
// later, and a page they touch after it is given back is read in again
// and stays.
const dropLag = 2 << 20

// readMapped is readPlan over the file mapped in m. A lazy read goes
// through it with a jsonread.Cursor, which checks the values it steps
// over twice as fast as jsontext (the values are most of a plan).
func readMapped(path string, m []byte, opts ReadOptions, visit Visitor) (p *Plan, err error) {
	read := func() { p, err = readCursor(path, m, opts, visit) }
	if !opts.Lazy {
		read = func() { p, err = readPlanFrom(path, bytes.NewBuffer(m), m, opts, visit) }
	}
	if fault := Guard(read); fault != nil {
		return nil, &InputError{File: path, Msg: fault.Error()}
	}
	return p, err
}

// readCursor reads the plan in m with a Cursor. When the plan is wrong,
// jsontext reads it again, to itself, for the error: a cursor knows where
// the text stops being JSON but not what the tools' readers say of it.
// The visitor's own errors are returned as readPlanFrom returns them.
func readCursor(path string, m []byte, opts ReadOptions, visit Visitor) (*Plan, error) {
	var visitErr error
	r := &reader{path: path, dec: jsonread.NewCursor(m), opts: opts, mapped: m}
	p, err := r.plan(func(section string, rc *ResourceChange) error {
		if visit != nil {
			visitErr = visit(section, rc)
		}
		return visitErr
	})
	switch {
	case err == nil:
		if err := checkIsPlan(path, p); err != nil {
			return nil, err
		}
		return p, nil
	case visitErr != nil:
		return nil, r.fail(err)
	}
	if _, jerr := readPlanFrom(path, bytes.NewBuffer(m), m, opts, nil); jerr != nil {
		return nil, jerr
	}
	return nil, r.fail(err) // jsontext read it all: the cursor's error is all there is
}

// Guard runs f, which reads a mapped plan, making a fault ErrFileChanged
// rather than a crash (see mapping.Guard).
var (
	Guard          = mapping.Guard
	ErrFileChanged = mapping.ErrFileChanged
)

// drop gives back the pages of the mapped file before off, every so often.
func (r *reader) drop(off int64) {
	off -= dropLag
	if r.mapped == nil || off-r.dropped < droppedEvery {
		return
	}
	end := off &^ (int64(os.Getpagesize()) - 1)
	mapping.Drop(r.mapped[r.dropped:end])
	r.dropped = end
}
