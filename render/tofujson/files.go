package tofujson

import (
	"errors"
	"io"
	"path/filepath"
	"sync"

	"github.com/planpr/planpr/flavor"
)

// Files are one run's input files: each is opened once, on its first use,
// and every pass over it reads a view of its own (an offset of its own)
// until Close. The parts of a file of several plans (SplitPlans) are
// sections of their original. What DetectFlavor says of a file is kept
// with it, so that a run decides each file's flavour once.
//
// A nil *Files opens a file afresh at each use: what a single read needs.
type Files struct {
	mu    sync.Mutex
	open  map[string]*openFile // by absolute path
	parts map[string]*io.SectionReader
}

// openFile is an input opened for the run.
type openFile struct {
	text   Text  // the input's UTF-8 text: the file, or its converted copy
	size   int64 // -1 when unknown: then each view opens the file again
	flavor *flavor.Flavor
}

// NewFiles makes an empty set of open files; Close closes them.
func NewFiles() *Files {
	return &Files{open: map[string]*openFile{}, parts: map[string]*io.SectionReader{}}
}

func fileKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// Open is a view of the input at path (or of a part SplitPlans made),
// opening the file if this is its first use. Closing the view leaves the
// file open for the run's other readers.
func (fs *Files) Open(path string) (Text, error) {
	if fs == nil {
		return OpenFile(path)
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if s, ok := fs.parts[path]; ok {
		return view{io.NewSectionReader(s, 0, s.Size())}, nil
	}
	f, err := fs.file(path)
	if err != nil {
		return nil, err
	}
	if f.size < 0 {
		return OpenFile(path)
	}
	return view{io.NewSectionReader(f.text, 0, f.size)}, nil
}

// file is the open input at path, opened now if it is not yet; fs.mu is
// held.
func (fs *Files) file(path string) (*openFile, error) {
	key := fileKey(path)
	if f := fs.open[key]; f != nil {
		return f, nil
	}
	text, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	f := &openFile{text: text, size: textSize(text)}
	fs.open[key] = f
	return f, nil
}

// Close closes every file the run opened, and forgets every part.
func (fs *Files) Close() error {
	if fs == nil {
		return nil
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	var errs []error
	for key, f := range fs.open {
		errs = append(errs, f.text.Close())
		delete(fs.open, key)
	}
	clear(fs.parts)
	return errors.Join(errs...)
}

// addPart makes a section of an original readable as a file of its own.
func (fs *Files) addPart(path string, s *io.SectionReader) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.parts[path] = s
}

// dropParts forgets parts.
func (fs *Files) dropParts(paths []string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, p := range paths {
		delete(fs.parts, p)
	}
}

// knownFlavor is what DetectFlavor said of the input at path, if it has.
func (fs *Files) knownFlavor(path string) (flavor.Flavor, bool) {
	if fs == nil {
		return flavor.Unknown, false
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if f := fs.open[fileKey(path)]; f != nil && f.flavor != nil {
		return *f.flavor, true
	}
	return flavor.Unknown, false
}

// rememberFlavor keeps what DetectFlavor said of an open input.
func (fs *Files) rememberFlavor(path string, fl flavor.Flavor) {
	if fs == nil {
		return
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if f := fs.open[fileKey(path)]; f != nil {
		f.flavor = &fl
	}
}

// view reads an open input; closing it leaves the input open for the
// run's other readers.
type view struct{ *io.SectionReader }

func (view) Close() error { return nil }
