// Package marker is the hidden first line of planpr's comments: the key a
// comment is found by again, the commit and run it is about, and what its
// labels are decided from; and where a comment's parts begin.
package marker

import (
	"regexp"
	"strconv"
	"strings"
)

// Marker is the hidden first line of planpr's comments, by which planpr
// finds its comment again: the key (root module, workspace or lock set),
// and what orders comments of one key. It is the one writer (String) and
// the one reader (Parse) of that line.
type Marker struct {
	Key string
	SHA string
	// At orders comments of one key: the Unix time of the object that
	// triggered the run (the pull request's updated_at, the workflow run's
	// run_started_at), one clock for the Action and the App; 0 when
	// unknown, which never counts as newer.
	At  int64
	Run int64 // the workflow run id, for reference; 0 when unknown
	// What the comment found, for whoever sums up all of planpr's
	// comments on a pull request (its labels): how many objects it
	// destroys, and whether a lock file raised an alert. The comment sets
	// them (Comments).
	Destroy   int
	LockAlert bool
	// Roots are the directories of the root modules the comment planned
	// (the Action's), whose lock files it holds: the lock files of no
	// comment's roots go to a comment of their own.
	Roots []string
	// Fingerprint is what the plans the comment reviews will do (package
	// fingerprint), unkeyed: for people and compare-plans.
	Fingerprint string
	// Review authenticates the review for the apply gate: an HMAC, with a
	// secret the review and the apply share, of the repository, pull
	// request, key, head commit and the keyed fingerprint
	// (fingerprint.ReviewMAC). "" when the run had no secret.
	Review string
}

// String is the marker line.
func (m Marker) String() string {
	s := "<!-- planpr:v1 key=" + Field(m.Key)
	if m.SHA != "" {
		s += " sha=" + Field(m.SHA)
	}
	if m.At != 0 {
		s += " at=" + strconv.FormatInt(m.At, 10)
	}
	if m.Run != 0 {
		s += " run=" + strconv.FormatInt(m.Run, 10)
	}
	if m.Destroy != 0 {
		s += " destroy=" + strconv.Itoa(m.Destroy)
	}
	if m.LockAlert {
		s += " lockalert=1"
	}
	if len(m.Roots) > 0 {
		roots := make([]string, len(m.Roots))
		for i, r := range m.Roots {
			roots[i] = Field(strings.ReplaceAll(r, ",", "_"))
		}
		s += " roots=" + strings.Join(roots, ",")
	}
	if m.Fingerprint != "" {
		s += " fp=" + Field(m.Fingerprint)
	}
	if m.Review != "" {
		s += " rv=" + Field(m.Review)
	}
	return s + " -->"
}

// Field is a value as the marker writes it: no spaces, no "--"
// (which would end the HTML comment), no angle brackets or quotes.
func Field(s string) string {
	s = strings.ReplaceAll(s, "--", "__")
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r == '<' || r == '>' || r == '"' {
			return '_'
		}
		return r
	}, s)
}

var markerLine = regexp.MustCompile(`^<!-- planpr:v1 key=(\S+)((?: \w+=\S+)*) -->`)

// Parse reads the marker at the start of a comment body.
func Parse(body string) (Marker, bool) {
	m := markerLine.FindStringSubmatch(body)
	if m == nil {
		return Marker{}, false
	}
	mk := Marker{Key: m[1]}
	for _, f := range strings.Fields(m[2]) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "sha":
			mk.SHA = v
		case "at":
			mk.At, _ = strconv.ParseInt(v, 10, 64)
		case "run":
			mk.Run, _ = strconv.ParseInt(v, 10, 64)
		case "destroy":
			mk.Destroy, _ = strconv.Atoi(v)
		case "lockalert":
			mk.LockAlert = v == "1"
		case "roots":
			mk.Roots = strings.Split(v, ",")
		case "fp":
			mk.Fingerprint = v
		case "rv":
			mk.Review = v
		}
	}
	return mk, true
}

// CommentParts splits a comment planpr wrote into its marker line, its
// body, and its footer (from the rule before the <sub> line on), so that
// comments from different runners can be compared part by part.
func CommentParts(comment string) (marker, body, footer string) {
	marker, rest, _ := strings.Cut(comment, "\n")
	if i := strings.LastIndex(rest, "\n---\n<sub>"); i >= 0 {
		rest, footer = rest[:i], rest[i+len("\n---\n"):]
	}
	return marker, strings.TrimRight(rest, "\n"), footer
}
