package render

import (
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
)

// safeCode, safeText, safeHTML and safeMessage are the one way untrusted values reach
// Markdown: masked first, then escaped (md.Code, md.Text, md.HTMLCode,
// md.Message). A nil masker hides credential shapes only.
func safeCode(m *mask.Masker, s string) string    { return md.Code(m.Quiet(s)) }
func safeText(m *mask.Masker, s string) string    { return md.Text(m.Quiet(s)) }
func safeHTML(m *mask.Masker, s string) string    { return md.HTMLCode(m.Quiet(s)) }
func safeMessage(m *mask.Masker, s string) string { return md.Message(m.Quiet(s)) }

// maskedPath writes an attribute path (pathString) with every step that is a
// marked map's key hidden: replace_paths name the keys of sensitive maps.
func maskedPath(m *mask.Masker, p []any) string {
	masked := make([]any, len(p))
	for i, step := range p {
		masked[i] = step
		if s, ok := step.(string); ok && i > 0 {
			if m.IsKey(s) {
				masked[i] = mask.Masked
			}
		}
	}
	return pathString(masked)
}
