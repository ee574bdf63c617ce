package tofujson

import "github.com/planpr/planpr/render/tofujson/internal/jsonread"

// The values of plans, states and streams are generic JSON as jsonread
// decodes them: these names are the models' vocabulary for them.
type (
	// Object is a JSON object with its members in their written order.
	Object = jsonread.Object
	// Member is one name and value of an Object.
	Member = jsonread.Member
	// SecretKind says what a sensitive piece of a value is.
	SecretKind = jsonread.SecretKind
	// ValueKind is the kind of a decoded JSON value.
	ValueKind = jsonread.ValueKind
)

// The kinds of secret and of value.
const (
	SecretString = jsonread.SecretString
	SecretNumber = jsonread.SecretNumber
	SecretKey    = jsonread.SecretKey

	KindNull   = jsonread.KindNull
	KindBool   = jsonread.KindBool
	KindNumber = jsonread.KindNumber
	KindString = jsonread.KindString
	KindArray  = jsonread.KindArray
	KindObject = jsonread.KindObject
)

// MaxValueDepth is how deep a value may nest; ErrTooDeep refuses more.
const MaxValueDepth = jsonread.MaxValueDepth

// ErrTooDeep refuses a value nested more than MaxValueDepth levels.
var ErrTooDeep = jsonread.ErrTooDeep

// AsObject is x as an Object, or nil.
func AsObject(x any) Object { return jsonread.AsObject(x) }

// KindOf says which kind of JSON value x is.
func KindOf(x any) ValueKind { return jsonread.KindOf(x) }

// Sorted sorts o's members by name in place, keeping the last of repeated
// names, and returns what is left.
func Sorted(o Object) Object { return jsonread.Sorted(o) }

// Strings calls add with every string, number and member name in x.
func Strings(x any, add func(string, SecretKind)) { jsonread.Strings(x, add) }

// Objects turns every map[string]any inside x into an Object.
func Objects(x any) any { return jsonread.Objects(x) }

// AnyTrue reports whether a metadata mirror marks anything at all.
func AnyTrue(mask any) bool { return jsonread.AnyTrue(mask) }

// DecodeText decodes the JSON value at the start of s (what follows it is
// not read) as a plan's values are decoded; its strings are substrings of s.
func DecodeText(s string) (any, error) { return jsonread.DecodeString(s) }

// PathString writes an attribute path: a.b[0].c.
func PathString(p []any) string { return jsonread.PathString(p) }
