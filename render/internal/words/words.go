// Package words owns the little English planpr's messages share: a
// count with its noun, plurals and agreement.
package words

import "strconv"

// Count is n and the word, plural unless n is 1: "1 change", "2 changes".
func Count(n int, word string) string {
	return strconv.Itoa(n) + " " + Plural(n, word)
}

// Plural is the word, plural unless n is 1: "change", "changes".
func Plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// IsAre is the verb that agrees with n things.
func IsAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
