package mask

import "reflect"

// MaskAll masks every string in v in place — fields, elements, map
// keys and values — so no part of the summary shows a secret: values are
// masked one by one, before they are encoded.
func (m *Masker) MaskAll(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(m.Mask(v.String()))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			m.MaskAll(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				m.MaskAll(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			m.MaskAll(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		masked := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			k := reflect.New(v.Type().Key()).Elem()
			k.Set(iter.Key())
			m.MaskAll(k)
			val := reflect.New(v.Type().Elem()).Elem()
			val.Set(iter.Value())
			m.MaskAll(val)
			masked.SetMapIndex(k, val)
		}
		v.Set(masked)
	}
}
