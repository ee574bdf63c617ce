// Package fingerprint says what a plan will do, in one hash and in a list
// of entries two plans can be compared by: per resource instance its
// address, actions, reason and values, and per root output its change —
// unknowns as unknown, sensitive values by their hash, numbers and object
// members in one canonical form, in address order. What changes from run
// to run without changing what is done (the timestamp, the tool's version,
// the prior state, refresh-only drift, the configuration) is left out, so
// the same plan made again has the same fingerprint, and plans of either
// tool compare by what they do.
package fingerprint

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/planpr/planpr/render/tofujson"
)

// Unknown stands for a value known only after apply.
const Unknown = "(known after apply)"

// Entry is one thing a plan will do.
type Entry struct {
	Address   string   `json:"address"` // a resource instance, or "output.NAME"
	Actions   string   `json:"actions"` // create, update, delete,create, …
	Reason    string   `json:"reason,omitempty"`
	Previous  string   `json:"previous,omitempty"` // moved from
	Importing bool     `json:"importing,omitempty"`
	Replace   []string `json:"replace,omitempty"` // paths that force replacement
	Before    any      `json:"before"`
	After     any      `json:"after"`
}

// Plan is what a plan will do, in address order.
type Plan struct {
	Entries []Entry
}

// Read reads what the plan at path will do.
func Read(path string) (*Plan, error) {
	entries, err := visit(path, func(e Entry, before, after marked) Entry {
		e.Before = normalize(before.value, before.unknown, before.sensitive)
		e.After = normalize(after.value, after.unknown, after.sensitive)
		return e
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Address, b.Address) })
	return &Plan{Entries: entries}, nil
}

// marksOf is a change's before and after values with their marks, as
// normalize takes them.
func marksOf(c tofujson.Change) (before, after marked) {
	return marked{c.Before, false, c.BeforeSensitive}, marked{c.After, c.AfterUnknown, c.AfterSensitive}
}

func entryOf(address string, c tofujson.Change) Entry {
	e := Entry{Address: address, Actions: strings.Join(c.Actions, ","), Importing: c.Importing != nil}
	for _, p := range c.ReplacePaths {
		e.Replace = append(e.Replace, tofujson.PathString(p))
	}
	slices.Sort(e.Replace)
	return e
}

// Sum is the plan's fingerprint: the SHA-256, in hex, of the SHA-256 of
// each entry's canonical JSON (a line as encoding/json writes it), in
// address order.
func (p *Plan) Sum() string {
	hashes := make([]hashed, len(p.Entries))
	for i := range p.Entries {
		e := &p.Entries[i]
		hashes[i] = hash(e, marked{value: e.Before}, marked{value: e.After})
	}
	return sumOfHashes(hashes)
}

// hashed is an entry's address and the hash of its canonical line: all a
// fingerprint keeps of it, so that a plan of any size is summed in little
// memory.
type hashed struct {
	address string
	hash    [sha256.Size]byte
}

// lines keep the buffers entries' lines are written in.
var lines = sync.Pool{New: func() any { return new([]byte) }}

func hash(e *Entry, before, after marked) hashed {
	buf := lines.Get().(*[]byte)
	*buf = appendEntry((*buf)[:0], e, before, after)
	h := hashed{e.Address, sha256.Sum256(*buf)}
	lines.Put(buf)
	return h
}

// sumOfHashes sums entries' hashes in address order (then hash order:
// two entries at one address, which no tool writes, sum alike in either
// order).
func sumOfHashes(hashes []hashed) string {
	slices.SortFunc(hashes, func(a, b hashed) int {
		return cmp.Or(strings.Compare(a.address, b.address), bytes.Compare(a.hash[:], b.hash[:]))
	})
	h := sha256.New()
	for _, e := range hashes {
		h.Write(e.hash[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sumOf is Read(path).Sum(), without keeping the plan's values.
func sumOf(path string) (string, error) {
	hashes, err := visit(path, func(e Entry, before, after marked) hashed { return hash(&e, before, after) })
	if err != nil {
		return "", err
	}
	return sumOfHashes(hashes), nil
}

// Short is a fingerprint as a footer shows it.
func Short(sum string) string {
	if len(sum) > 12 {
		return sum[:12]
	}
	return sum
}

// normalize writes a value canonically: unknown parts as Unknown,
// sensitive parts as the hash of their value, objects as maps (encoded
// with sorted keys), numbers in one form.
func normalize(v, unknown, sensitive any) any {
	if unknown == true {
		return Unknown
	}
	if sensitive == true {
		b, _ := json.Marshal(normalize(v, nil, nil))
		sum := sha256.Sum256(b)
		return "(sensitive " + hex.EncodeToString(sum[:8]) + ")"
	}
	switch x := v.(type) {
	case tofujson.Object:
		out := make(map[string]any, len(x))
		for _, m := range x {
			out[m.Name] = normalize(m.Value, member(unknown, m.Name), member(sensitive, m.Name))
		}
		if u, ok := unknown.(tofujson.Object); ok { // after leaves out what is unknown
			for _, m := range u {
				if _, have := out[m.Name]; !have && m.Value == true {
					out[m.Name] = Unknown
				}
			}
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[k] = normalize(val, member(unknown, k), member(sensitive, k))
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = normalize(val, element(unknown, i), element(sensitive, i))
		}
		return out
	case json.Number:
		return number(string(x))
	case float64:
		b, _ := json.Marshal(x)
		return number(string(b))
	}
	return v
}

// number writes a number one way whatever the tool wrote: 1, 1.0 and 1e0
// are 1.
func number(s string) json.Number {
	if written(s) {
		return json.Number(s)
	}
	return asFraction(s)
}

// asFraction is number the long way: s read as a fraction and written.
func asFraction(s string) json.Number {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return json.Number(s)
	}
	if r.IsInt() {
		return json.Number(r.Num().String())
	}
	return json.Number(r.FloatString(20)[:len(strings.TrimRight(r.FloatString(20), "0"))])
}

// written reports whether s is a number as number writes it already —
// an integer with no leading zero, or a decimal of at most 20 places
// whose last is not 0 — as nearly every number a plan holds is: no need
// to read it as a fraction to write it again.
func written(s string) bool {
	i := 0
	if strings.HasPrefix(s, "-") {
		i++
	}
	digits := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	switch {
	case i == digits, s[digits] == '0' && i-digits > 1: // no digit, or a leading zero
		return false
	case i == len(s):
		return s != "-0"
	case s[i] != '.':
		return false // an exponent
	}
	places := len(s) - i - 1
	for _, c := range s[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return places >= 1 && places <= 20 && s[len(s)-1] != '0'
}

func member(marks any, name string) any {
	switch m := marks.(type) {
	case tofujson.Object:
		v, _ := m.Get(name)
		return v
	case map[string]any:
		return m[name]
	}
	return nil
}

func element(marks any, i int) any {
	if l, ok := marks.([]any); ok && i < len(l) {
		return l[i]
	}
	return nil
}

// Root is a root module's plan, named.
type Root struct{ Name, Path string }

// OfRoots is the fingerprint of several roots' plans: the one plan's Sum,
// or the hash of each root's name and Sum, in name order. Roots with no
// plan (a stream alone) count for nothing; none at all gives "".
func OfRoots(roots []Root) (string, error) {
	var lines []string
	single := ""
	for _, r := range roots {
		if r.Path == "" {
			continue
		}
		sum, err := sumOf(r.Path)
		var several *tofujson.SeveralPlansError
		if errors.As(err, &several) { // terragrunt's file of plans: each counts
			parts, release, err := tofujson.SplitPlans(r.Path)
			defer release()
			if err != nil {
				return "", err
			}
			for k, part := range parts {
				partSum, err := sumOf(part.Path)
				if err != nil {
					return "", err
				}
				lines = append(lines, fmt.Sprintf("%s#%d\x00%s", r.Name, k+1, partSum))
			}
			continue
		}
		if err != nil {
			return "", err
		}
		single = sum
		lines = append(lines, r.Name+"\x00"+single)
	}
	switch {
	case len(lines) == 0:
		return "", nil
	case len(lines) == 1 && single != "":
		return single, nil
	}
	slices.Sort(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:]), nil
}
