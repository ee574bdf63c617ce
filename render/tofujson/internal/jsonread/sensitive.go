package jsonread

import "bytes"

// SensitiveWork is the part of a lazily read change that holds sensitive
// values: the raw values whose mirrors mark something. It can be run
// apart from the read, for example on another goroutine. It holds them
// itself rather than in a slice: one fewer allocation per change.
type SensitiveWork struct {
	values [2]MarkedValue
	n      int
}

// MarkedValue is a raw value, its sensitivity mirror and, when the reader
// kept one, the index of its members (MemberOffsets).
type MarkedValue struct {
	Value, Mask []byte
	Members     []uint32
}

// NewSensitiveWork is the work of a change's raw before and after values
// and their sensitivity mirrors: those whose mirror marks nothing are
// left out.
func NewSensitiveWork(before, after MarkedValue) SensitiveWork {
	var w SensitiveWork
	for _, v := range []MarkedValue{before, after} {
		if bytes.Contains(v.Mask, []byte("true")) {
			w.values[w.n] = v
			w.n++
		}
	}
	return w
}

// Empty reports whether there is nothing to scan.
func (w SensitiveWork) Empty() bool { return w.n == 0 }

// MaskCache remembers decoded sensitivity mirrors, which repeat across the
// resources of a type.
type MaskCache map[string]any

// Run calls add with every marked string; cache may be nil.
func (w SensitiveWork) Run(cache MaskCache, add func(string, SecretKind)) error {
	for _, v := range w.values[:w.n] {
		mask, ok := cache[string(v.Mask)]
		if !ok {
			var err error
			if mask, err = DecodeRaw(v.Mask); err != nil {
				return err
			}
			if cache != nil && len(cache) < 10000 {
				cache[string(v.Mask)] = mask
			}
		}
		if err := MarkedStringsIndexed(v.Value, v.Members, mask, add); err != nil {
			return err
		}
	}
	return nil
}

// CollectMarked calls add with every string of a decoded value that the
// sensitivity mirror marks sensitive.
func CollectMarked(value, sensitive any, add func(string, SecretKind)) {
	switch s := sensitive.(type) {
	case bool:
		if s {
			Strings(value, add)
		}
	case Object:
		v := AsObject(value)
		for _, m := range s {
			CollectMarked(v.Value(m.Name), m.Value, add)
		}
	case []any:
		v, _ := value.([]any)
		for i, sub := range s {
			if i < len(v) {
				CollectMarked(v[i], sub, add)
			}
		}
	}
}
