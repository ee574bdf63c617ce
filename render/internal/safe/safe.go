// Package safe is the one way untrusted values reach Markdown: masked
// first, then escaped (md.Code, md.Text, md.HTMLCode, md.Message). A nil
// masker hides credential shapes only.
package safe

import (
	"strings"

	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
)

func Code(m *mask.Masker, s string) string    { return md.Code(m.Quiet(s)) }
func Text(m *mask.Masker, s string) string    { return md.Text(m.Quiet(s)) }
func HTML(m *mask.Masker, s string) string    { return md.HTMLCode(m.Quiet(s)) }
func Message(m *mask.Masker, s string) string { return md.Message(m.Quiet(s)) }

// TableCode is a code span that is safe inside a table cell.
func TableCode(m *mask.Masker, s string) string {
	return strings.ReplaceAll(Code(m, s), "|", "\\|")
}
