package md

import (
	"strings"
	"unicode/utf8"
)

// CutRunes is Cut counting characters rather than bytes.
func CutRunes(text string, limit int) string {
	if utf8.RuneCountInString(text) <= limit {
		return text
	}
	keep := limit - utf8.RuneCountInString(truncatedNote)
	if keep <= 0 {
		return string([]rune(truncatedNote)[:max(0, limit)])
	}
	offset, n := 0, 0
	for i := range text {
		if n == keep {
			offset = i
			break
		}
		n++
	}
	cut := text[:offset]
	if nl := strings.LastIndexByte(cut, '\n'); nl > offset/2 {
		cut = cut[:nl]
	}
	return cut + truncatedNote
}

const truncatedNote = "\n\n… (cut to fit)\n"

// Cut is the last resort when a comment still does not fit: cut at a
// line end (or at least between characters), then say so. The result is
// at most max bytes, and never less than the note.
func Cut(text string, limit int) string {
	if len(text) <= limit {
		return text
	}
	keep := limit - len(truncatedNote)
	if keep <= 0 {
		return strings.ToValidUTF8(truncatedNote[:max(0, limit)], "")
	}
	cut := text[:keep]
	if nl := strings.LastIndexByte(cut, '\n'); nl > keep/2 {
		cut = cut[:nl]
	}
	for len(cut) > 0 && !utf8.RuneStart(text[len(cut)]) {
		cut = cut[:len(cut)-1]
	}
	return cut + truncatedNote
}
