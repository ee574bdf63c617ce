package fingerprint

import (
	"encoding/json"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/planpr/planpr/render/tofujson"
)

// appendEntry appends e's canonical JSON line: what encoding/json's
// Encoder writes for it once its values are normalized (see normalize),
// written straight from the values as decoded, their unknown and
// sensitive marks beside them, without building the normalized copy.
// TestCanonicalIsEncodingJSON holds it to encoding/json's bytes.
func appendEntry(b []byte, e *Entry, before, after marked, opts Options) []byte {
	b = append(b, `{"address":`...)
	b = appendString(b, e.Address)
	if e.Provider != "" {
		b = append(b, `,"provider":`...)
		b = appendString(b, e.Provider)
	}
	b = append(b, `,"actions":`...)
	b = appendString(b, e.Actions)
	if e.Reason != "" {
		b = append(b, `,"reason":`...)
		b = appendString(b, e.Reason)
	}
	if e.Previous != "" {
		b = append(b, `,"previous":`...)
		b = appendString(b, e.Previous)
	}
	if e.Importing {
		b = append(b, `,"importing":true`...)
	}
	if len(e.Replace) > 0 {
		b = append(b, `,"replace":[`...)
		for i, p := range e.Replace {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, p)
		}
		b = append(b, ']')
	}
	b = append(b, `,"before":`...)
	b = appendValue(b, before.value, before.unknown, before.sensitive, opts)
	b = append(b, `,"after":`...)
	b = appendValue(b, after.value, after.unknown, after.sensitive, opts)
	return append(b, "}\n"...)
}

// marked is a value with its unknown and sensitive marks.
type marked struct{ value, unknown, sensitive any }

// appendValue appends normalize(v, unknown, sensitive, opts) as
// encoding/json writes it: object members sorted by name, numbers in one
// form.
func appendValue(b []byte, v, unknown, sensitive any, opts Options) []byte {
	if unknown == true {
		return appendString(b, Unknown)
	}
	if sensitive == true {
		return appendString(b, opts.sensitiveMark(appendValue(nil, v, nil, nil, opts)))
	}
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case string:
		return appendString(b, literal(x))
	case bool:
		if x {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case json.Number:
		return append(b, number(string(x))...)
	case tofujson.Object:
		return appendObject(b, x, unknown, sensitive, opts)
	case map[string]any:
		b = append(b, '{')
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, k), ':')
			b = appendValue(b, x[k], member(unknown, k), member(sensitive, k), opts)
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, e, element(unknown, i), element(sensitive, i), opts)
		}
		return append(b, ']')
	}
	// Anything else (a float64, say) as normalize and encoding/json have it.
	out, _ := json.Marshal(normalize(v, nil, nil, opts))
	return append(b, out...)
}

// appendObject appends an object's members and, after leaving out what
// is unknown, the names its unknown mirror marks: all in name order, as
// encoding/json writes a map. A decoded Object is sorted, each name once;
// one made otherwise is sorted here as a map would hold it.
func appendObject(b []byte, x tofujson.Object, unknown, sensitive any, opts Options) []byte {
	if !x.IsSorted() {
		x = tofujson.Sorted(slices.Clone(x))
	}
	var extra []string
	if u, ok := unknown.(tofujson.Object); ok {
		for _, m := range u {
			if _, have := x.Get(m.Name); !have && m.Value == true {
				extra = append(extra, m.Name)
			}
		}
		if !u.IsSorted() {
			slices.Sort(extra)
			extra = slices.Compact(extra)
		}
	}
	b = append(b, '{')
	for n := 0; len(x) > 0 || len(extra) > 0; n++ {
		if n > 0 {
			b = append(b, ',')
		}
		if len(extra) == 0 || len(x) > 0 && x[0].Name < extra[0] {
			m := x[0]
			b = append(appendString(b, m.Name), ':')
			b = appendValue(b, m.Value, member(unknown, m.Name), member(sensitive, m.Name), opts)
			x = x[1:]
			continue
		}
		b = append(appendString(b, extra[0]), ':')
		b = appendString(b, Unknown)
		extra = extra[1:]
	}
	return append(b, '}')
}

// plain marks the bytes encoding/json writes as they are.
var plain = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendString appends s quoted as encoding/json quotes it: HTML's <, >
// and & escaped, invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		for i < len(s) && plain[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(b, s[start:]...), '"')
}
