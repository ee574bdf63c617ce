package jsonread

import "github.com/go-json-experiment/json/jsontext"

// Tokens is what a reader of a JSON document asks of its source: the
// methods of jsontext.Decoder that plan and state readers call.
type Tokens interface {
	PeekKind() jsontext.Kind
	ReadToken() (jsontext.Token, error)
	ReadValue() (jsontext.Value, error)
	SkipValue() error
	InputOffset() int64
}

var _ Tokens = (*jsontext.Decoder)(nil)
