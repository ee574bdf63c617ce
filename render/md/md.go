// Package md owns safe Markdown for GitHub: untrusted text escaped outside
// code (no HTML, links, mentions, references, emoji or invisible
// characters), code spans and fences that no value can close, diff blocks
// that GitHub colours, and collapsed details. It imports nothing of the
// project; the masking of secrets happens before (render/mask).
package md

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"unicode"
)

// Fence wraps body in a code fence longer than any backtick run inside
// it, so no value can close the block early.
func Fence(body, lang string) string {
	fence := strings.Repeat("`", max(3, longestBacktickRun(body)+1))
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return fence + lang + "\n" + body + fence + "\n"
}

// longestBacktickRun is the length of the longest run of backticks in s.
func longestBacktickRun(s string) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// Code is untrusted text as inline code: a backtick run longer than any
// inside it, padded when the text starts or ends with a backtick.
func Code(s string) string {
	if s = Visible(s); strings.ContainsAny(s, "\n\r") {
		s = strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' {
				return ' '
			}
			return r
		}, s)
	}
	ticks := strings.Repeat("`", longestBacktickRun(s)+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") {
		s = " " + s + " "
	}
	return ticks + s + ticks
}

// HTMLCode is untrusted text as code inside our own HTML (a <summary>):
// escaped so it cannot close or open a tag.
func HTMLCode(s string) string {
	// GitHub does not look for mentions or references inside <code>.
	s = strings.NewReplacer("\n", " ", "\r", " ").Replace(html.EscapeString(Visible(s)))
	return "<code>" + s + "</code>"
}

// visible replaces characters that would hide or disguise text — control
// characters (ANSI escapes, carriage returns), bidirectional overrides,
// zero-width characters — with a visible \u escape. Newlines and tabs stay.
// Visible shows characters that would hide or disguise text as \uXXXX:
// control characters (a carriage return, ANSI escapes), bidirectional
// overrides, zero-width and other invisible characters. Newlines and tabs
// stay. Logs use it too.
func Visible(s string) string {
	if plainASCII(s) || strings.IndexFunc(s, Invisible) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if Invisible(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// plainASCII reports whether s is printable ASCII, tabs and newlines
// only, in which Invisible finds nothing: most text is, and is passed over
// a byte at a time rather than decoded rune by rune.
func plainASCII(s string) bool {
	for i := range len(s) {
		if c := s[i]; c < ' ' && c != '\n' && c != '\t' || c >= 0x7f {
			return false
		}
	}
	return true
}

// Invisible reports characters that show nothing or move text: controls,
// format characters (bidirectional overrides, zero-width characters, the
// soft hyphen, U+FEFF, U+2060–2064…), line and paragraph separators, and
// the fillers that render blank.
func Invisible(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	switch r {
	case '\u2028', '\u2029', '\u115f', '\u1160', '\u3164', '\uffa0', '\u034f', '\u180e':
		return true
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// DiffBlock turns OpenTofu's text for one resource (or outputs) into a
// ```diff block that GitHub colours: each change symbol moves to the start
// of its line (~ becomes !, which GitHub shows as changed); alignment is
// kept.
func DiffBlock(text string) string {
	lines := strings.Split(Visible(text), "\n")
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		indent := len(l) - len(trimmed)
		if indent == 0 || len(trimmed) < 2 || trimmed[1] != ' ' {
			continue
		}
		switch trimmed[0] {
		case '+', '-':
			lines[i] = trimmed[:1] + strings.Repeat(" ", indent) + trimmed[1:]
		case '~':
			lines[i] = "!" + strings.Repeat(" ", indent) + trimmed[1:]
		}
	}
	return Fence(strings.Join(lines, "\n"), "diff")
}

// Text escapes untrusted text for Markdown outside code: nothing in it
// can open HTML, a link or image, a table cell, emphasis, mention a user,
// reference an issue (#1, GH-1), become a link (https://…, www.…) or an
// emoji (:name:), or hide (invisible and control characters are shown as
// \uXXXX). An empty HTML comment renders as nothing and splits the text
// GitHub scans for mentions, references, autolinks and shortcodes.
func Text(s string) string {
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
			if Invisible(r) || r == '\t' {
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

// Message escapes one of planpr's own messages, which may quote untrusted
// text: backtick code spans are kept, everything else is escaped.
func Message(s string) string {
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 { // unbalanced backticks: escape everything
		return Text(s)
	}
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 && !strings.ContainsAny(p, "\n\r") {
			b.WriteString("`" + p + "`")
			continue
		}
		b.WriteString(Text(p))
	}
	return b.String()
}

// Details is a collapsed section: summary (already escaped, it is HTML)
// and a body of Markdown.
func Details(summary, body string) string {
	return "<details><summary>" + summary + "</summary>\n\n" + body + "\n</details>\n\n"
}

// CollapseBlankLines leaves at most one blank line between blocks of
// Markdown: runs of them are noise in a rendered comment. Lines inside
// fenced code blocks are kept as they are, so a diff stays byte-exact.
func CollapseBlankLines(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	fence := "" // the opening fence of the code block we are in
	blanks := 0 // blank lines just seen outside code
	for line := range strings.SplitAfterSeq(text, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		if fence != "" {
			if strings.HasPrefix(strings.TrimLeft(trimmed, " "), fence) && strings.Trim(strings.TrimLeft(trimmed, " "), fence[:1]) == "" {
				fence = ""
			}
			b.WriteString(line)
			continue
		}
		if strings.TrimSpace(trimmed) == "" {
			blanks++
			if blanks > 1 {
				continue
			}
			b.WriteString(line)
			continue
		}
		blanks = 0
		if f := fenceOpener(trimmed); f != "" {
			fence = f
		}
		b.WriteString(line)
	}
	return b.String()
}

// fenceOpener is the run of backquotes or tildes that opens a fenced code
// block on line (up to three spaces in), or "".
func fenceOpener(line string) string {
	s := strings.TrimLeft(line, " ")
	if len(line)-len(s) > 3 || len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return ""
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	return s[:n]
}
