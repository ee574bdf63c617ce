package jsonread

import (
	"encoding/json"
	"strings"
)

// PathString writes an attribute path as the plan gives it (replace_paths,
// relevant_attributes): names joined by dots, indexes in brackets as
// JSON writes them — a.b[0].c.
func PathString(p []any) string {
	var b strings.Builder
	for i, step := range p {
		switch v := step.(type) {
		case string:
			if i > 0 {
				b.WriteString(".")
			}
			b.WriteString(v)
		default:
			b.WriteString("[")
			enc, _ := json.Marshal(v)
			b.Write(enc)
			b.WriteString("]")
		}
	}
	return b.String()
}
