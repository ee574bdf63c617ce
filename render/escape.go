package render

import "strings"

// mdText escapes untrusted text for Markdown outside code: nothing in it
// can open HTML, a link or image, a table cell, emphasis, or mention a
// user or an issue.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '@', '#':
			// An empty HTML comment splits the text node GitHub scans for
			// @mentions and #references, and renders as nothing.
			b.WriteRune(r)
			b.WriteString("<!-- -->")
		case '|':
			b.WriteString("&#124;")
		case '\\', '`', '*', '_', '[', ']', '!', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n', '\r':
			b.WriteByte(' ')
		default:
			if r < 0x20 || r == 0x7f || (r >= 0x200b && r <= 0x200f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
				b.WriteString("�")
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdMessage escapes one of planpr's own messages, which may quote untrusted
// text: backtick code spans are kept, everything else is escaped.
func mdMessage(s string) string {
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 { // unbalanced backticks: escape everything
		return mdText(s)
	}
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 && !strings.ContainsAny(p, "\n\r") {
			b.WriteString("`" + p + "`")
			continue
		}
		b.WriteString(mdText(p))
	}
	return b.String()
}
