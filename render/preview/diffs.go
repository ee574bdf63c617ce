package preview

import (
	"bytes"
	"regexp"
)

// diffBlock is a diff code block in the sanitised HTML.
var diffBlock = regexp.MustCompile(`(?s)<code class="language-diff">(.*?)</code>`)

// colourDiffs colours the lines of diff blocks as GitHub does: added
// lines green, removed ones red, changed (!) ones orange. The text is
// already escaped; only spans are added around whole lines.
func colourDiffs(page []byte) []byte {
	return diffBlock.ReplaceAllFunc(page, func(block []byte) []byte {
		inner := diffBlock.FindSubmatch(block)[1]
		lines := bytes.SplitAfter(inner, []byte("\n"))
		var out bytes.Buffer
		out.WriteString(`<code class="language-diff">`)
		for _, line := range lines {
			body := bytes.TrimSuffix(line, []byte("\n"))
			class := ""
			if len(body) > 0 {
				switch body[0] {
				case '+':
					class = "diff-add"
				case '-':
					class = "diff-del"
				case '!':
					class = "diff-change"
				}
			}
			if class == "" {
				out.Write(line)
				continue
			}
			out.WriteString(`<span class="` + class + `">`)
			out.Write(body)
			out.WriteString("</span>")
			out.Write(line[len(body):])
		}
		out.WriteString("</code>")
		return out.Bytes()
	})
}
