//go:build !linux

package mapping

import "os"

// Map maps only on Linux (where pages can be given back as the pass
// goes): elsewhere the file is read in pieces.
func Map(*os.File) ([]byte, bool) { return nil, false }

// Unmap does nothing where nothing is mapped.
func Unmap([]byte) {}

// Drop does nothing where nothing is mapped.
func Drop([]byte) {}
