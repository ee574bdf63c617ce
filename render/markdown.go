package render

import (
	"fmt"
	"html"
	"strings"
	"unicode"
)

// fenced wraps body in a code fence longer than any backtick run inside
// it, so no value can close the block early.
func fenced(body, lang string) string {
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

// codeSpan is untrusted text as inline code: a backtick run longer than any
// inside it, padded when the text starts or ends with a backtick.
func codeSpan(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, visible(s))
	ticks := strings.Repeat("`", longestBacktickRun(s)+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") {
		s = " " + s + " "
	}
	return ticks + s + ticks
}

// htmlCode is untrusted text as code inside our own HTML (a <summary>):
// escaped so it cannot close or open a tag.
func htmlCode(s string) string {
	// GitHub does not look for mentions or references inside <code>.
	s = strings.NewReplacer("\n", " ", "\r", " ").Replace(html.EscapeString(visible(s)))
	return "<code>" + s + "</code>"
}

// visible replaces characters that would hide or disguise text — control
// characters (ANSI escapes, carriage returns), bidirectional overrides,
// zero-width characters — with a visible \u escape. Newlines and tabs stay.
func visible(s string) string { return Visible(s) }

// Visible shows characters that would hide or disguise text as \uXXXX:
// control characters (a carriage return, ANSI escapes), bidirectional
// overrides, zero-width and other invisible characters. Newlines and tabs
// stay. Logs use it too.
func Visible(s string) string {
	if strings.IndexFunc(s, invisible) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if invisible(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// invisible reports characters that show nothing or move text: controls,
// format characters (bidirectional overrides, zero-width characters, the
// soft hyphen, U+FEFF, U+2060–2064…), line and paragraph separators, and
// the fillers that render blank.
func invisible(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	switch r {
	case '\u2028', '\u2029', '\u115f', '\u1160', '\u3164', '\uffa0', '\u034f', '\u180e':
		return true
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// diffBlock turns OpenTofu's text for one resource (or outputs) into a
// ```diff block that GitHub colours: each change symbol moves to the start
// of its line (~ becomes !, which GitHub shows as changed); alignment is
// kept.
func diffBlock(text string) string {
	lines := strings.Split(visible(text), "\n")
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
	return fenced(strings.Join(lines, "\n"), "diff")
}
