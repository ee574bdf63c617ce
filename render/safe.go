package render

import (
	"github.com/planpr/planpr/render/internal/safe"
	"github.com/planpr/planpr/render/mask"
)

// The one way untrusted values reach Markdown (see package safe).
var (
	safeCode    = safe.Code
	safeText    = safe.Text
	safeHTML    = safe.HTML
	safeMessage = safe.Message
	tableCode   = safe.TableCode
)

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
