package jsonread

import "encoding/json"

// ValueKind is which of JSON's kinds a decoded value is.
type ValueKind uint8

const (
	KindNull ValueKind = iota
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

// KindOf says which kind of JSON value x is, as this package (or
// encoding/json, for numbers) decodes it; anything else counts as null.
func KindOf(x any) ValueKind {
	switch x.(type) {
	case bool:
		return KindBool
	case json.Number, float64:
		return KindNumber
	case string:
		return KindString
	case []any:
		return KindArray
	case Object:
		return KindObject
	}
	return KindNull
}
