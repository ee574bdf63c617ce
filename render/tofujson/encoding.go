package tofujson

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// utf8Text returns f itself when it holds UTF-8 without a byte-order mark,
// else an unlinked temporary file holding its text as UTF-8, for every
// reader to read (at offsets, too) as if the input were written so:
// editors and `Out-File -Encoding utf8` write a UTF-8 byte-order mark,
// Windows PowerShell's `>` writes UTF-16 with one. The copy is streamed,
// so memory stays bounded; it takes the disk space of the text.
func utf8Text(path string, f *os.File) (*os.File, error) {
	head := make([]byte, 4)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	var dec transform.Transformer
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		dec = unicode.UTF8BOM.NewDecoder()
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE, 0, 0}), bytes.HasPrefix(head, []byte{0, 0, 0xFE, 0xFF}):
		return nil, &InputError{File: path, Msg: "the file is UTF-32: write it as UTF-8 (or UTF-16), e.g. `tofu show -json PLANFILE | Out-File -Encoding utf8 plan.json`"}
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		dec = unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		dec = unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder()
	case n >= 2 && (head[0] == 0) != (head[1] == 0):
		return nil, &InputError{File: path, Msg: "the file looks like UTF-16 without a byte-order mark: write it as UTF-8, e.g. `tofu show -json PLANFILE | Out-File -Encoding utf8 plan.json`"}
	default:
		return f, nil
	}
	defer f.Close()
	tmp, err := os.CreateTemp("", "planpr-utf8-*")
	if err != nil {
		return nil, &InputError{File: path, Msg: "converting to UTF-8: " + err.Error()}
	}
	os.Remove(tmp.Name()) // gone with the last descriptor
	if _, err := io.Copy(tmp, transform.NewReader(io.NewSectionReader(f, 0, 1<<62), dec)); err != nil {
		tmp.Close()
		return nil, &InputError{File: path, Msg: "converting to UTF-8: " + err.Error()}
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		tmp.Close()
		return nil, &InputError{File: path, Msg: err.Error()}
	}
	return tmp, nil
}
