// Package flavor owns what differs between the two tools planpr reviews,
// OpenTofu and Terraform: their names, their commands, and the switches
// where their renderers part ways. It knows no plan: readers decide which
// tool wrote an input (tofujson, lockdiff), renderers ask the flavor how to
// say it. Keeping the difference as data keeps one renderer for both.
package flavor

import (
	"fmt"
	"strings"
)

// Flavor is the tool whose words and rules a review follows.
type Flavor uint8

const (
	// Unknown is neither said nor detected: planpr speaks as OpenTofu
	// does and says so once.
	Unknown Flavor = iota
	OpenTofu
	Terraform
)

// Parse reads a --flavor value: "opentofu" (or "tofu"), "terraform", or
// "" and "auto" for Unknown, which asks for detection.
func Parse(s string) (Flavor, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return Unknown, nil
	case "opentofu", "tofu":
		return OpenTofu, nil
	case "terraform":
		return Terraform, nil
	}
	return Unknown, fmt.Errorf("flavor %q: want opentofu, terraform or auto", s)
}

// String is the flavor's name as --flavor takes it.
func (f Flavor) String() string {
	switch f {
	case OpenTofu:
		return "opentofu"
	case Terraform:
		return "terraform"
	}
	return "auto"
}

// Or is f, or d when f is Unknown.
func (f Flavor) Or(d Flavor) Flavor {
	if f == Unknown {
		return d
	}
	return f
}

// Terraform reports whether the review speaks as Terraform.
func (f Flavor) Terraform() bool { return f == Terraform }

// Product is the tool's name in prose: "OpenTofu" or "Terraform".
func (f Flavor) Product() string {
	if f == Terraform {
		return "Terraform"
	}
	return "OpenTofu"
}

// Command is the tool's command: "tofu" or "terraform".
func (f Flavor) Command() string {
	if f == Terraform {
		return "terraform"
	}
	return "tofu"
}

// Say puts the flavor's words into text written in OpenTofu's:
// "OpenTofu" becomes the product, and a command in backquotes or after a
// "run" (`tofu init`, "tofu apply") the flavor's command.
func (f Flavor) Say(text string) string {
	if f != Terraform {
		return text
	}
	return terraformWords.Replace(text)
}

var terraformWords = strings.NewReplacer(
	"OpenTofu", "Terraform",
	"`tofu ", "`terraform ",
	"\"tofu ", "\"terraform ",
	"  tofu ", "  terraform ",
	"(tofu ", "(terraform ",
)

// Columns is the width both tools wrap their messages to when not on a
// terminal: a line holds at most Columns-1 characters.
const Columns = 78

// Wrap word-wraps each line of text as both tools wrap their fixed
// messages: greedily, at spaces, no line longer than Columns-1
// characters; lines already short enough (an indented command) are kept.
func Wrap(text string) string {
	lines := strings.Split(text, "\n")
	var b strings.Builder
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		width := 0
		for j, word := range strings.Split(line, " ") {
			n := len([]rune(word))
			switch {
			case j == 0:
			case width+1+n > Columns-1:
				b.WriteByte('\n')
				width = 0
			default:
				b.WriteByte(' ')
				width++
			}
			b.WriteString(word)
			width += n
		}
	}
	return b.String()
}
