package tofujson

import (
	"bytes"
	"os"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
)

// A plan is read fastest from memory: jsontext then parses it in place,
// instead of copying it piece by piece into a buffer of its own. Where the
// platform can map the file (see mapFile), ReadPlan does so. The pass
// gives back the pages it has read as it goes (dropMapped), so the plan
// never counts whole against the process's memory.

// droppedEvery is how far the pass reads before it gives pages back.
const droppedEvery = 4 << 20

// dropLag is how far behind the read the pages given back end: borrowed
// values (ReadOptions.Borrow) are read on other goroutines a little
// later, and a page they touch after it is given back is read in again
// and stays.
const dropLag = 2 << 20

// readMapped is readPlan over the file mapped in m.
func readMapped(path string, m []byte, opts ReadOptions, visit Visitor) (p *Plan, err error) {
	if fault := Guard(func() { p, err = readPlanFrom(path, bytes.NewBuffer(m), m, opts, visit) }); fault != nil {
		return nil, &InputError{File: path, Msg: fault.Error()}
	}
	return p, err
}

// Guard runs f, which reads a mapped plan, making a fault ErrFileChanged
// rather than a crash (see jsonread.Guard).
var (
	Guard          = jsonread.Guard
	ErrFileChanged = jsonread.ErrFileChanged
)

// drop gives back the pages of the mapped file before off, every so often.
func (r *reader) drop(off int64) {
	off -= dropLag
	if r.mapped == nil || off-r.dropped < droppedEvery {
		return
	}
	end := off &^ (int64(os.Getpagesize()) - 1)
	jsonread.Drop(r.mapped[r.dropped:end])
	r.dropped = end
}
