// Package fingerprint says what a plan will do, in one hash and in a list
// of entries two plans can be compared by: per resource instance its
// address, provider, actions, reason and values; per root output its
// change; the root module's input variables and the providers'
// configuration — unknowns as unknown (never equal to any string),
// numbers exactly and in one canonical form that never expands an
// exponent, object members in name order, in address order. What changes
// from run to run without changing what is done (the timestamp, the
// tool's version, the prior state, refresh-only drift, the resources'
// configuration) is left out, so the same plan made again has the same
// fingerprint, and plans of either tool compare by what they do.
//
// Sensitive values enter a fingerprint only when it is keyed
// (Options.Key, a secret the review and the apply share): then the sum is
// an HMAC and each sensitive value its HMAC, so nothing can be guessed
// from a published fingerprint. Unkeyed — what a comment shows — a
// sensitive value counts only as being sensitive.
package fingerprint

import (
	"bytes"
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	stdhash "hash"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/planpr/planpr/render/tofujson"
)

// Unknown stands for a value known only after apply. A plan's string that
// reads the same is told apart (see literal).
const Unknown = "(known after apply)"

// Options say how a fingerprint is made.
type Options struct {
	// Key, when set, keys the fingerprint: its sum is an HMAC-SHA-256 and
	// each sensitive value enters as its HMAC. Without it no sensitive
	// value enters at all, only that it is sensitive.
	Key []byte
}

// sensitiveMark is what a sensitive value enters a fingerprint as.
func (o Options) sensitiveMark(canonical []byte) string {
	if len(o.Key) == 0 {
		return "(sensitive)"
	}
	m := hmac.New(sha256.New, o.Key)
	m.Write(canonical)
	return "(sensitive " + hex.EncodeToString(m.Sum(nil)[:16]) + ")"
}

// newHash is the hash of a sum: keyed when o is.
func (o Options) newHash() stdhash.Hash {
	if len(o.Key) == 0 {
		return sha256.New()
	}
	return hmac.New(sha256.New, o.Key)
}

// Entry is one thing a plan will do.
type Entry struct {
	Address   string   `json:"address"`            // a resource instance, "output.NAME", "var.NAME" or "provider_config.NAME"
	Provider  string   `json:"provider,omitempty"` // a resource's provider source
	Actions   string   `json:"actions"`            // create, update, delete,create, …; "input" for a variable, "configure" for a provider
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
	opts    Options
	hashes  []hashed // of Entries as read, when read
}

// Read reads what the plan at path will do.
func Read(files *tofujson.Files, path string, opts Options) (*Plan, error) {
	type read struct {
		e Entry
		h hashed
	}
	got, err := visit(context.Background(), files, path, func(e Entry, before, after marked) read {
		h := hash(&e, before, after, opts)
		e.Before = normalize(before.value, before.unknown, before.sensitive, opts)
		e.After = normalize(after.value, after.unknown, after.sensitive, opts)
		return read{e, h}
	})
	if err != nil {
		return nil, err
	}
	p := &Plan{opts: opts}
	for _, r := range got {
		p.Entries = append(p.Entries, r.e)
		p.hashes = append(p.hashes, r.h)
	}
	slices.SortStableFunc(p.Entries, func(a, b Entry) int { return strings.Compare(a.Address, b.Address) })
	return p, nil
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

// Sum is the plan's fingerprint: the SHA-256 (keyed: HMAC-SHA-256), in
// hex, of the SHA-256 of each entry's canonical JSON (a line as
// encoding/json writes it), in address order.
func (p *Plan) Sum() string {
	hashes := slices.Clone(p.hashes)
	if hashes == nil { // a plan made by hand: its entries' values are a plan's
		for i := range p.Entries {
			e := &p.Entries[i]
			hashes = append(hashes, hash(e, marked{value: e.Before}, marked{value: e.After}, p.opts))
		}
	}
	return sumOfHashes(hashes, p.opts)
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

func hash(e *Entry, before, after marked, opts Options) hashed {
	buf := lines.Get().(*[]byte)
	*buf = appendEntry((*buf)[:0], e, before, after, opts)
	h := hashed{e.Address, sha256.Sum256(*buf)}
	lines.Put(buf)
	return h
}

// sumOfHashes sums entries' hashes in address order (then hash order:
// two entries at one address, which no tool writes, sum alike in either
// order).
func sumOfHashes(hashes []hashed, opts Options) string {
	slices.SortFunc(hashes, func(a, b hashed) int {
		return cmp.Or(strings.Compare(a.address, b.address), bytes.Compare(a.hash[:], b.hash[:]))
	})
	h := opts.newHash()
	for _, e := range hashes {
		h.Write(e.hash[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sumsOf is sumOf for each of opts, the plan read once.
func sumsOf(ctx context.Context, files *tofujson.Files, path string, opts []Options) ([]string, error) {
	each, err := visit(ctx, files, path, func(e Entry, before, after marked) []hashed {
		hs := make([]hashed, len(opts))
		for i, o := range opts {
			hs[i] = hash(&e, before, after, o)
		}
		return hs
	})
	if err != nil {
		return nil, err
	}
	sums := make([]string, len(opts))
	for i, o := range opts {
		hashes := make([]hashed, len(each))
		for j, hs := range each {
			hashes[j] = hs[i]
		}
		sums[i] = sumOfHashes(hashes, o)
	}
	return sums, nil
}

// Short is a fingerprint as a footer shows it.
func Short(sum string) string {
	if len(sum) > 12 {
		return sum[:12]
	}
	return sum
}

// normalize writes a value canonically: unknown parts as Unknown,
// sensitive parts as their mark (see Options), strings that could be read
// as a mark told apart (see literal), objects as maps (encoded with sorted
// keys), numbers in one form (see number).
func normalize(v, unknown, sensitive any, opts Options) any {
	if unknown == true {
		return Unknown
	}
	if sensitive == true {
		return opts.sensitiveMark(appendValue(nil, v, nil, nil, opts))
	}
	switch x := v.(type) {
	case string:
		return literal(x)
	case tofujson.Object:
		out := make(map[string]any, len(x))
		for _, m := range x {
			out[m.Name] = normalize(m.Value, member(unknown, m.Name), member(sensitive, m.Name), opts)
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
			out[k] = normalize(val, member(unknown, k), member(sensitive, k), opts)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = normalize(val, element(unknown, i), element(sensitive, i), opts)
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

// literalMark starts a plan's string that starts with "(", as the marks
// of unknown and sensitive values do: so the string "(known after apply)"
// is never taken for an unknown value, nor one that reads like a
// sensitive mark for a sensitive value.
const literalMark = "(literal)"

// literal is a plan's string as a fingerprint has it.
func literal(s string) string {
	if strings.HasPrefix(s, "(") {
		return literalMark + s
	}
	return s
}

// maxPlainDigits and maxPlainPlaces bound the numbers number writes in
// plain decimal; beyond them it writes an exponent, so that a number
// written short (1e1000000) is never expanded.
const (
	maxPlainDigits = 40
	maxPlainPlaces = 30
)

// number writes a number one way whatever the tool wrote, exactly — 1,
// 1.0 and 1e0 are 1; 0.1 and 0.1000…0001 differ — and never longer than
// a little more than it was written: plain decimal while that takes at
// most maxPlainDigits digits and maxPlainPlaces places, else
// "D.DDDDe±N" with every significant digit. Text that is no JSON number
// is kept as it is.
func number(s string) json.Number {
	if written(s) {
		return json.Number(s)
	}
	return numberRead(s)
}

// numberRead is number the long way: s read and written again.
func numberRead(s string) json.Number {
	neg, digits, exp, ok := decimal(s)
	if !ok {
		return json.Number(s)
	}
	if digits == "" {
		return "0"
	}
	sign := ""
	if neg {
		sign = "-"
	}
	// The value is digits × 10^exp, digits without leading or trailing zeros.
	if exp.IsInt64() {
		e := exp.Int64()
		switch {
		case e >= 0 && int64(len(digits))+e <= maxPlainDigits:
			return json.Number(sign + digits + strings.Repeat("0", int(e)))
		case e < 0 && -e <= maxPlainPlaces && int64(len(digits))+e <= maxPlainDigits:
			if whole := int64(len(digits)) + e; whole > 0 {
				return json.Number(sign + digits[:whole] + "." + digits[whole:])
			}
			return json.Number(sign + "0." + strings.Repeat("0", int(-e)-len(digits)) + digits)
		}
	}
	// Scientific: one digit before the point, the exponent adjusted.
	sci := new(big.Int).Add(exp, big.NewInt(int64(len(digits)-1)))
	mantissa := digits[:1]
	if len(digits) > 1 {
		mantissa += "." + digits[1:]
	}
	return json.Number(sign + mantissa + "e" + sci.String())
}

// decimal reads a JSON number as its sign, its significant digits (no
// leading or trailing zeros; "" for zero) and the power of ten they are
// multiplied by. The exponent is read whole, however long.
func decimal(s string) (neg bool, digits string, exp *big.Int, ok bool) {
	if !json.Valid([]byte(s)) || s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return false, "", nil, false
	}
	if s[0] == '-' {
		neg, s = true, s[1:]
	}
	mant, expText, hasExp := strings.Cut(strings.ToLower(s), "e")
	whole, frac, _ := strings.Cut(mant, ".")
	exp = big.NewInt(0)
	if hasExp {
		// An exponent past 18 digits (no float comes near) is kept as
		// written: reading it is not worth its cost.
		if len(strings.TrimLeft(strings.TrimLeft(expText, "+-"), "0")) > 18 {
			return false, "", nil, false
		}
		if _, good := exp.SetString(strings.TrimPrefix(expText, "+"), 10); !good {
			return false, "", nil, false
		}
	}
	all := whole + frac
	exp.Sub(exp, big.NewInt(int64(len(frac))))
	trimmed := strings.TrimRight(all, "0")
	exp.Add(exp, big.NewInt(int64(len(all)-len(trimmed))))
	digits = strings.TrimLeft(trimmed, "0")
	if digits == "" {
		return false, "", big.NewInt(0), true // -0 is 0
	}
	return neg, digits, exp, true
}

// written reports whether s is a number as number writes it already —
// an integer of at most maxPlainDigits digits with no leading zero, or a
// decimal of at most maxPlainPlaces places whose last is not 0 — as
// nearly every number a plan holds is: no need to read it to write it
// again.
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
		return s != "-0" && i-digits <= maxPlainDigits
	case s[i] != '.':
		return false // an exponent
	}
	places := len(s) - i - 1
	for _, c := range s[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	significant := len(strings.TrimLeft(strings.ReplaceAll(s[digits:], ".", ""), "0"))
	return places >= 1 && places <= maxPlainPlaces && s[len(s)-1] != '0' && significant <= maxPlainDigits
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
// plan (a stream alone) count for nothing; none at all gives "". It stops
// when ctx ends (a job's deadline): its work is linear in the plans' size.
func OfRoots(ctx context.Context, files *tofujson.Files, roots []Root, opts Options) (string, error) {
	sums, err := OfRootsEach(ctx, files, roots, opts)
	if err != nil {
		return "", err
	}
	return sums[0], nil
}

// OfRootsEach is OfRoots for each of opts (the published fingerprint and
// the keyed one, say), every plan read once.
func OfRootsEach(ctx context.Context, files *tofujson.Files, roots []Root, opts ...Options) ([]string, error) {
	lines := make([][]string, len(opts))
	single := make([]string, len(opts))
	add := func(name string, sums []string) {
		for i, sum := range sums {
			lines[i] = append(lines[i], name+"\x00"+sum)
		}
	}
	for _, r := range roots {
		if r.Path == "" {
			continue
		}
		sums, err := sumsOf(ctx, files, r.Path, opts)
		var several *tofujson.SeveralPlansError
		if errors.As(err, &several) { // terragrunt's file of plans: each counts
			if files == nil { // the parts are read through files of the run's own
				files = tofujson.NewFiles()
				defer files.Close()
			}
			parts, release, err := files.SplitPlans(r.Path)
			defer release()
			if err != nil {
				return nil, err
			}
			for k, part := range parts {
				partSums, err := sumsOf(ctx, files, part.Path, opts)
				if err != nil {
					return nil, err
				}
				add(fmt.Sprintf("%s#%d", r.Name, k+1), partSums)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		copy(single, sums)
		add(r.Name, sums)
	}
	out := make([]string, len(opts))
	for i, o := range opts {
		switch {
		case len(lines[i]) == 0:
		case len(lines[i]) == 1 && single[i] != "":
			out[i] = single[i]
		default:
			slices.Sort(lines[i])
			h := o.newHash()
			h.Write([]byte(strings.Join(lines[i], "\n")))
			out[i] = hex.EncodeToString(h.Sum(nil))
		}
	}
	return out, nil
}
