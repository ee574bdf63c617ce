package fingerprint

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/planpr/planpr/render/md"
)

// Difference is one thing two plans would do differently.
type Difference struct {
	Address  string   `json:"address"`
	Kind     string   `json:"kind"` // new, gone, action, reason, moved, provider, values
	Reviewed string   `json:"reviewed,omitempty"`
	Current  string   `json:"current,omitempty"`
	Paths    []string `json:"paths,omitempty"` // the values that differ
	Message  string   `json:"message"`
}

// maxPaths bounds the value paths a difference names.
const maxPaths = 10

// Compare says, entry by entry, what the current plan would do that the
// reviewed one would not: none when they would do the same — exactly when
// their fingerprints are equal. An address a plan holds more than once
// (which no tool writes) is compared occurrence by occurrence.
func Compare(reviewed, current *Plan) []Difference {
	byAddr := func(p *Plan) map[string]Entry {
		m := make(map[string]Entry, len(p.Entries))
		for _, e := range p.Entries {
			key := e.Address
			for n := 2; ; n++ {
				if _, taken := m[key]; !taken {
					break
				}
				key = fmt.Sprintf("%s (occurrence %d)", e.Address, n)
			}
			m[key] = e
		}
		return m
	}
	r, c := byAddr(reviewed), byAddr(current)
	var out []Difference
	for _, a := range unionKeys(r, c) {
		re, inR := r[a]
		ce, inC := c[a]
		name := md.Code(a) // addresses hold for_each keys: untrusted text
		switch {
		case !inR:
			out = append(out, Difference{Address: a, Kind: "new", Current: verb(ce), Message: fmt.Sprintf("%s: new since review (%s)", name, verb(ce))})
		case !inC:
			out = append(out, Difference{Address: a, Kind: "gone", Reviewed: verb(re), Message: fmt.Sprintf("%s: no longer in the plan (reviewed as %s)", name, verb(re))})
		case re.Actions != ce.Actions || re.Importing != ce.Importing:
			msg := fmt.Sprintf("%s: reviewed as %s, now %s", name, verb(re), verb(ce))
			if why := because(ce); why != "" {
				msg += " because " + why
			}
			out = append(out, Difference{Address: a, Kind: "action", Reviewed: verb(re), Current: verb(ce), Message: msg})
		case re.Reason != ce.Reason || !slices.Equal(re.Replace, ce.Replace):
			out = append(out, Difference{Address: a, Kind: "reason", Reviewed: verb(re), Current: verb(ce),
				Message: fmt.Sprintf("%s: the same %s, now because %s (reviewed: %s)", name, verb(ce), orAsked(because(ce)), orAsked(because(re)))})
		case re.Previous != ce.Previous:
			out = append(out, Difference{Address: a, Kind: "moved", Message: fmt.Sprintf("%s: now moved from %s (reviewed: from %s)", name, md.Code(ce.Previous), md.Code(re.Previous))})
		case re.Provider != ce.Provider:
			out = append(out, Difference{Address: a, Kind: "provider", Reviewed: re.Provider, Current: ce.Provider,
				Message: fmt.Sprintf("%s: the same %s, now by provider %s (reviewed: %s)", name, verb(ce), md.Code(ce.Provider), md.Code(re.Provider))})
		default:
			var paths []string
			diffPaths(&paths, "before: ", re.Before, ce.Before)
			diffPaths(&paths, "", re.After, ce.After)
			if len(paths) == 0 {
				continue
			}
			shown := make([]string, min(len(paths), maxPaths))
			for i := range shown {
				shown[i] = md.Code(paths[i])
			}
			msg := fmt.Sprintf("%s: the same %s, but with other values: %s", name, verb(ce), strings.Join(shown, ", "))
			if len(paths) > maxPaths {
				msg += fmt.Sprintf(" and %d more", len(paths)-maxPaths)
			}
			out = append(out, Difference{Address: a, Kind: "values", Reviewed: verb(re), Current: verb(ce), Paths: paths, Message: msg})
		}
	}
	return out
}

func orAsked(s string) string {
	if s == "" {
		return "no reason given"
	}
	return s
}

// verb says what an entry does.
func verb(e Entry) string {
	switch e.Actions {
	case "create":
		return "create"
	case "update":
		return "update"
	case "delete":
		return "destroy"
	case "delete,create", "create,delete":
		return "replace"
	case "read":
		return "read"
	case "forget":
		return "forget"
	}
	switch {
	case e.Importing:
		return "import"
	case e.Previous != "":
		return "move"
	}
	return e.Actions
}

// because says why an entry is replaced or destroyed.
func because(e Entry) string {
	switch {
	case len(e.Replace) == 1:
		return md.Code(e.Replace[0]) + " forces replacement"
	case len(e.Replace) > 1:
		codes := make([]string, len(e.Replace))
		for i, p := range e.Replace {
			codes[i] = md.Code(p)
		}
		return strings.Join(codes, ", ") + " force replacement"
	case e.Reason != "":
		return strings.ReplaceAll(e.Reason, "_", " ")
	}
	return ""
}

// diffPaths adds the paths where two normalized values differ.
func diffPaths(out *[]string, at string, a, b any) {
	if reflect.DeepEqual(a, b) {
		return
	}
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		for _, k := range unionKeys(am, bm) {
			diffPaths(out, join(at, k), am[k], bm[k])
		}
		return
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok && len(al) == len(bl) {
		for i := range al {
			diffPaths(out, at+"["+strconv.Itoa(i)+"]", al[i], bl[i])
		}
		return
	}
	if at == "" || at == "before: " {
		at += "(the whole value)"
	}
	*out = append(*out, at)
}

func join(at, key string) string {
	if at == "" || strings.HasSuffix(at, ": ") {
		return at + key
	}
	if !isIdent(key) {
		b, _ := json.Marshal(key)
		return at + "[" + string(b) + "]"
	}
	return at + "." + key
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// unionKeys is every key of a or b, sorted, each once.
func unionKeys[V any](a, b map[string]V) []string {
	keys := slices.AppendSeq(slices.Collect(maps.Keys(a)), maps.Keys(b))
	slices.Sort(keys)
	return slices.Compact(keys)
}
