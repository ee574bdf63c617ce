package jsonread

import (
	"cmp"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// Object is a decoded JSON object: its members sorted by name (in byte
// order), each name once. Decoding makes even an empty object non-nil, so a
// nil Object means "not an object".
//
// A sorted slice rather than a map: plans hold millions of small objects,
// which are made once, read a few times in name order, and dropped. A
// slice is one allocation with no hashing, and its members come out in the
// order they are shown.
type Object []Member

// Member is one name and value of an Object.
type Member struct {
	Name  string
	Value any
}

// Get returns the value of the named member.
func (o Object) Get(name string) (any, bool) {
	if i, ok := o.Index(name); ok {
		return o[i].Value, true
	}
	return nil, false
}

// Index finds the named member: its index, or where it would be inserted.
func (o Object) Index(name string) (int, bool) {
	return slices.BinarySearchFunc(o, name, func(m Member, name string) int { return strings.Compare(m.Name, name) })
}

// Value returns the value of the named member, nil when there is none.
func (o Object) Value(name string) any {
	v, _ := o.Get(name)
	return v
}

// valueOf is Value for a name held as bytes, which it does not keep.
func (o Object) valueOf(name []byte) any {
	i, ok := slices.BinarySearchFunc(o, name, func(m Member, name []byte) int { return compareName(m.Name, name) })
	if !ok {
		return nil
	}
	return o[i].Value
}

// compareName is strings.Compare(a, string(b)), without making the string.
func compareName(a string, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return cmp.Compare(a[i], b[i])
		}
	}
	return cmp.Compare(len(a), len(b))
}

// AsObject returns x as an Object, nil when x is not one.
func AsObject(x any) Object {
	o, _ := x.(Object)
	return o
}

// newObject makes an Object of members read in document order.
func newObject(members []Member) Object {
	o := make(Object, len(members))
	copy(o, members)
	return Sorted(o)
}

// Sorted sorts o's members by name in place, keeping the last of repeated
// names (as a map would), and returns what is left. OpenTofu writes names
// sorted, so decoding rarely needs to sort.
func Sorted(o Object) Object {
	if o.IsSorted() {
		return o
	}
	slices.SortStableFunc(o, compareMembers)
	out := o[:0]
	for i, m := range o {
		if i+1 < len(o) && o[i+1].Name == m.Name {
			continue // a later value for the same name follows
		}
		out = append(out, m)
	}
	return out
}

// IsSorted reports whether o is as Sorted leaves it: its names in order,
// each once.
func (o Object) IsSorted() bool {
	for i := 1; i < len(o); i++ {
		if o[i-1].Name >= o[i].Name {
			return false
		}
	}
	return true
}

func compareMembers(a, b Member) int { return strings.Compare(a.Name, b.Name) }

// Strings calls add with every string, number and member name inside a
// decoded JSON value: all of a sensitive value's secrets.
func Strings(x any, add func(string, SecretKind)) {
	switch t := x.(type) {
	case string:
		add(t, SecretString)
	case json.Number:
		add(string(t), SecretNumber)
	case []any:
		for _, e := range t {
			Strings(e, add)
		}
	case Object:
		for _, m := range t {
			add(m.Name, SecretKey)
			Strings(m.Value, add)
		}
	}
}

// SecretKind says what a sensitive piece of a value is: a marked map's
// keys and numbers are as secret as its strings, but show differently.
type SecretKind uint8

const (
	SecretString SecretKind = iota
	SecretNumber            // a number's JSON text
	SecretKey               // an object member's name (a map key)
)

// Objects returns a value decoded by encoding/json as this package decodes
// it: every map[string]any inside becomes an Object (slices are changed in
// place).
func Objects(x any) any {
	switch t := x.(type) {
	case map[string]any:
		o := make(Object, 0, len(t))
		for name, v := range t {
			o = append(o, Member{name, Objects(v)})
		}
		return Sorted(o)
	case []any:
		for i, e := range t {
			t[i] = Objects(e)
		}
	}
	return x
}

// ObjectsIn applies Objects to every interface value inside what encoding/json
// filled: struct fields, map and slice elements, through pointers.
func ObjectsIn(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			ObjectsIn(v.Elem())
		}
	case reflect.Interface:
		switch x := v.Interface().(type) {
		case map[string]any:
			v.Set(reflect.ValueOf(Objects(x)))
		case []any:
			Objects(x)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				ObjectsIn(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		switch v.Type().Elem().Kind() {
		case reflect.Interface, reflect.Struct, reflect.Pointer, reflect.Map, reflect.Slice, reflect.Array:
		default:
			return // bytes (json.RawMessage), strings, numbers
		}
		for i := range v.Len() {
			ObjectsIn(v.Index(i))
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			// Map elements cannot be changed in place: copy, fix, store.
			e := reflect.New(iter.Value().Type()).Elem()
			e.Set(iter.Value())
			ObjectsIn(e)
			v.SetMapIndex(iter.Key(), e)
		}
	}
}
