// Package jsontest holds what the readers' tests share: input files
// written as tofu writes them, or as editors and shells re-encode them.
package jsontest

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf16"
)

// Write writes content to a file named name in a fresh directory.
func Write(t testing.TB, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// UTF16 is s in UTF-16, with a byte-order mark or not, as Windows
// PowerShell's > writes it.
func UTF16(s string, order binary.AppendByteOrder, bom bool) []byte {
	var out []byte
	if bom {
		out = order.AppendUint16(out, 0xFEFF)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		out = order.AppendUint16(out, u)
	}
	return out
}
