package jsonread

import (
	"reflect"
	"testing"
)

// DecodeString decodes the JSON value at the start of s into memory of its
// own: what a nil StringDecoder does, and what the tests hold the reusing
// one, and the other decoders, to.
func DecodeString(s string) (any, error) { return decodeText(s, nil) }

// TestStringDecoderKeepsValuesUntilFree: values a StringDecoder decodes
// into memory it reuses stay as DecodeString decodes them until Free, and
// it decodes alike after it; a nil one decodes as DecodeString does.
func TestStringDecoderKeepsValuesUntilFree(t *testing.T) {
	texts := []string{
		`{"Statement":[{"Action":["s3:GetObject","s3:ListBucket"],"Effect":"Allow","Resource":"arn:aws:s3:::b-0/*"}],"Version":"2012-10-17"}`,
		`["a\nb","caf\u00e9 \"quoted\"",1.5e3,true,null,{"z":1,"a":[2,3]}]`,
		`{"b":"x\\y","a":"\ud83d\ude00 surrogates go the long way"}`,
		`{"dup":1,"dup":2}`,
		`[1, 2] trailing text`,
		`{"unclosed":`,
	}
	want := make([]any, len(texts))
	wantErr := make([]bool, len(texts))
	for i, s := range texts {
		v, err := DecodeString(s)
		want[i], wantErr[i] = v, err != nil
	}
	var d StringDecoder
	for round := range 3 {
		got := make([]any, len(texts))
		for i, s := range texts {
			v, err := d.Decode(s)
			if (err != nil) != wantErr[i] {
				t.Fatalf("round %d: Decode(%q) error %v, DecodeString's: %v", round, s, err, wantErr[i])
			}
			got[i] = v
		}
		for i := range texts { // every value, once all are decoded
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("round %d: value %d is %#v, want %#v: a later decode wrote over it", round, i, got[i], want[i])
			}
		}
		d.Free()
	}
	var none *StringDecoder
	if v, err := none.Decode(texts[0]); err != nil || !reflect.DeepEqual(v, want[0]) {
		t.Fatalf("nil StringDecoder: %#v, %v", v, err)
	}
	none.Free()
}
