package mask

import (
	"bytes"
	"io"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// decoders are reused: a raw value is scanned with one, token by token.
var decoders = sync.Pool{New: func() any {
	return jsontext.NewDecoder(bytes.NewReader(nil), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
}}

// scanNameKeyed records, token by token and without decoding the value,
// what nameKeyed records of the value raw holds (see AddNameKeyed).
func scanNameKeyed(raw []byte, depth int, add func(string)) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil // no value at all
	}
	dec := decoders.Get().(*jsontext.Decoder)
	defer decoders.Put(dec)
	dec.Reset(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	s := &nameScan{dec: dec, add: add, depth: depth}
	if err := s.value(false); err != nil {
		return err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return err
	}
	return nil
}

type nameScan struct {
	dec   *jsontext.Decoder
	add   func(string)
	depth int
}

// value scans the next value; secret says every string in it is one.
func (s *nameScan) value(secret bool) error {
	if s.depth > maxNameKeyedDepth {
		_, err := s.dec.ReadValue()
		return err
	}
	switch s.dec.PeekKind() {
	case '{':
		return s.object(secret)
	case '[':
		if _, err := s.dec.ReadToken(); err != nil {
			return err
		}
		s.depth++
		for s.dec.PeekKind() != ']' {
			if err := s.value(secret); err != nil {
				return err
			}
		}
		s.depth--
		_, err := s.dec.ReadToken()
		return err
	case '"':
		raw, err := s.dec.ReadValue()
		if err != nil {
			return err
		}
		switch {
		case secret:
			s.add(unquote(raw))
		case embeddedJSON(raw):
			// A string that only looks like JSON is a string.
			if inner := jsontext.Value(unquote(raw)); inner.IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
				return scanNameKeyed(inner, s.depth+1, s.add)
			}
		}
		return nil
	case 0:
		_, err := s.dec.ReadToken() // the error the decoder has
		return err
	}
	_, err := s.dec.ReadValue()
	return err
}

// object scans an object: a member named as a credential's has every
// string of its value recorded; a "value" member is recorded when a
// "name" (or "key") member names a credential.
func (s *nameScan) object(secret bool) error {
	if _, err := s.dec.ReadToken(); err != nil {
		return err
	}
	s.depth++
	var named bool
	var values []string
	for s.dec.PeekKind() != '}' {
		nameRaw, err := s.dec.ReadValue()
		if err != nil {
			return err
		}
		field := pairField(nameRaw)
		switch {
		case secret || hasCredentialHint(nameRaw) && CredentialName(unquote(nameRaw)):
			err = s.value(true)
		case field == "name" && s.dec.PeekKind() == '"':
			var raw jsontext.Value
			if raw, err = s.dec.ReadValue(); err == nil && hasCredentialHint(raw) && CredentialName(unquote(raw)) {
				named = true
			}
		case field == "value" && s.dec.PeekKind() == '"':
			var raw jsontext.Value
			if raw, err = s.dec.ReadValue(); err == nil {
				values = append(values, unquote(raw))
			}
		default:
			err = s.value(false)
		}
		if err != nil {
			return err
		}
	}
	s.depth--
	if named {
		for _, v := range values {
			s.add(v)
		}
	}
	_, err := s.dec.ReadToken()
	return err
}

// pairField says whether a member's raw name is the name or the value
// of a {name, value} pair, in the spellings providers use.
func pairField(raw []byte) string {
	switch string(raw) {
	case `"name"`, `"Name"`, `"NAME"`, `"key"`, `"Key"`, `"KEY"`:
		return "name"
	case `"value"`, `"Value"`, `"VALUE"`:
		return "value"
	}
	return ""
}

// embeddedJSON reports a raw string that may hold a JSON object or array
// naming a credential (a container definition written with jsonencode).
func embeddedJSON(raw []byte) bool {
	inner := bytes.TrimLeft(raw[1:], " \\tnr")
	return len(raw) <= maxEmbeddedJSON && len(inner) > 0 && (inner[0] == '{' || inner[0] == '[') && hasCredentialHint(raw)
}

func unquote(raw []byte) string {
	s, err := jsontext.AppendUnquote(nil, raw)
	if err != nil {
		return string(raw)
	}
	return string(s)
}
