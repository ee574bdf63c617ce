package tofujson

import (
	"io"
	"path/filepath"
	"sync"

	"github.com/planpr/planpr/flavor"
)

// OnOpen, when set, is called each time an input is opened from disk
// (tests count them).
var OnOpen func(path string)

// heldFile is an input opened once for a run and read through views.
type heldFile struct {
	text   Text // the input's UTF-8 text: the file, or its converted copy
	size   int64
	refs   int
	flavor *flavor.Flavor // the tool that wrote it, once DetectFlavor has said
}

var (
	heldMu sync.Mutex
	held   = map[string]*heldFile{}
)

func heldKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// Hold opens each of paths once and keeps it open until release: every
// OpenFile of a held path in between reads a view of that one open file
// (its own offset; mapped where the file can be), so that a run opens
// each input once, however many passes read it. A path that cannot be
// opened is not held: OpenFile says why when it is asked.
func Hold(paths ...string) (release func()) {
	var keys []string
	for _, p := range paths {
		key := heldKey(p)
		heldMu.Lock()
		h := held[key]
		heldMu.Unlock()
		if h == nil {
			text, err := OpenFile(p)
			if err != nil {
				continue
			}
			h = &heldFile{text: text, size: textSize(text)}
			heldMu.Lock()
			if other := held[key]; other != nil { // held meanwhile by another run
				text.Close()
				h = other
			} else {
				held[key] = h
			}
			heldMu.Unlock()
		}
		heldMu.Lock()
		h.refs++
		heldMu.Unlock()
		keys = append(keys, key)
	}
	return func() {
		heldMu.Lock()
		defer heldMu.Unlock()
		for _, key := range keys {
			if h := held[key]; h != nil {
				if h.refs--; h.refs <= 0 {
					h.text.Close()
					delete(held, key)
				}
			}
		}
	}
}

// heldFlavor is what DetectFlavor said of a held input, if it has.
func heldFlavor(path string) (flavor.Flavor, bool) {
	heldMu.Lock()
	defer heldMu.Unlock()
	if h := held[heldKey(path)]; h != nil && h.flavor != nil {
		return *h.flavor, true
	}
	return flavor.Unknown, false
}

// rememberFlavor keeps what DetectFlavor said of a held input, so that
// the run decides each input's flavour once.
func rememberFlavor(path string, f flavor.Flavor) {
	heldMu.Lock()
	defer heldMu.Unlock()
	if h := held[heldKey(path)]; h != nil {
		h.flavor = &f
	}
}

// openHeld is a view of a held input, if path is one.
func openHeld(path string) (Text, bool) {
	heldMu.Lock()
	h := held[heldKey(path)]
	heldMu.Unlock()
	if h == nil || h.size < 0 {
		return nil, false
	}
	return heldText{SectionReader: io.NewSectionReader(h.text, 0, h.size), file: h.text}, true
}

// heldText reads a held input; closing it leaves the input open for the
// run's other readers.
type heldText struct {
	*io.SectionReader
	file Text
}

func (heldText) Close() error { return nil }
