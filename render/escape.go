package render

import (
	"fmt"
	"regexp"
	"strings"
)

// mdText escapes untrusted text for Markdown outside code: nothing in it
// can open HTML, a link or image, a table cell, emphasis, mention a user,
// reference an issue (#1, GH-1), become a link (https://…, www.…) or an
// emoji (:name:), or hide (invisible and control characters are shown as
// \uXXXX). An empty HTML comment renders as nothing and splits the text
// GitHub scans for mentions, references, autolinks and shortcodes.
func mdText(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '@', '#':
			b.WriteRune(r)
			b.WriteString("<!-- -->")
		case ':':
			b.WriteRune(r)
			if rest := s[i+1:]; strings.HasPrefix(rest, "//") || shortcode.MatchString(rest) {
				b.WriteString("<!-- -->") // a scheme's :// or an :emoji:
			}
		case '|':
			b.WriteString("&#124;")
		case '\\', '`', '*', '_', '[', ']', '!', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n', '\r':
			b.WriteByte(' ')
		case '.', '-':
			// www.… and GH-1: split after the word, so neither is linked.
			if w := strings.ToLower(s[max(0, i-3):i]); (r == '.' && w == "www") || (r == '-' && len(w) >= 2 && w[len(w)-2:] == "gh") {
				b.WriteString("<!-- -->")
			}
			b.WriteRune(r)
		default:
			if invisible(r) || r == '\t' {
				fmt.Fprintf(&b, "\\u%04x", r)
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// shortcode is what follows the first colon of an :emoji: shortcode
// (one with a letter: "file.tf:3:" stays as it is).
var shortcode = regexp.MustCompile(`^[0-9_+-]*[A-Za-z][A-Za-z0-9_+-]*:`)

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
