package jsonread

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestDecodedObjectsAreSortedAndKeepTheLastRepeat(t *testing.T) {
	v, err := DecodeRaw([]byte(`{"b":1,"a":{"z":true,"y":[{}]},"b":2,"c":null}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Object{
		{"a", Object{{"y", []any{Object{}}}, {"z", true}}},
		{"b", json.Number("2")},
		{"c", nil},
	}
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("got %#v\nwant %#v", v, want)
	}
	o := v.(Object)
	if x, ok := o.Get("c"); !ok || x != nil {
		t.Errorf(`Get("c") = %v, %v; want a present null`, x, ok)
	}
	if _, ok := o.Get("d"); ok {
		t.Error(`Get("d") found a member that is not there`)
	}
	if empty := AsObject(o.Value("a")).Value("y").([]any)[0].(Object); empty == nil {
		t.Error("{} decoded as a nil Object; nil means not an object")
	}
}

// Values that encoding/json decodes (small sections, UI stream messages)
// must look like the rest: a map left inside would be invisible to the
// differ and, worse, to the masker.
func TestObjectsInReplacesEncodingJSONMaps(t *testing.T) {
	var dst struct {
		Outputs map[string]struct {
			Value any `json:"value"`
		} `json:"outputs"`
		List []any           `json:"list"`
		Raw  json.RawMessage `json:"raw"`
	}
	in := `{"outputs":{"o":{"value":{"k":{"secret":"s"}}}},"list":[{"b":1,"a":2}],"raw":{"x":1}}`
	if err := json.Unmarshal([]byte(in), &dst); err != nil {
		t.Fatal(err)
	}
	ObjectsIn(reflect.ValueOf(&dst))
	if got, want := dst.Outputs["o"].Value, (Object{{"k", Object{{"secret", "s"}}}}); !reflect.DeepEqual(got, want) {
		t.Errorf("output value = %#v, want %#v", got, want)
	}
	if got, want := dst.List[0], (Object{{"a", 2.0}, {"b", 1.0}}); !reflect.DeepEqual(got, want) {
		t.Errorf("list element = %#v, want %#v", got, want)
	}
	if string(dst.Raw) != `{"x":1}` {
		t.Errorf("raw JSON changed: %s", dst.Raw)
	}
	var secrets []string
	Strings(dst.Outputs["o"].Value, func(s string, _ SecretKind) { secrets = append(secrets, s) })
	if !reflect.DeepEqual(secrets, []string{"k", "secret", "s"}) {
		t.Errorf("Strings found %q", secrets)
	}
}
