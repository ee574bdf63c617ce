//go:build !linux

package tofujson

import "os"

// mapFile maps only on Linux (where pages can be given back as the
// pass goes): elsewhere the file is read in pieces.
func mapFile(*os.File) ([]byte, bool) { return nil, false }

func unmapFile([]byte) {}

func dropMapped([]byte) {}
