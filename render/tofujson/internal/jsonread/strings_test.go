package jsonread

import (
	"math/rand/v2"
	"reflect"
	"strconv"
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

// TestQuoteOrSlashIsFirstOne: the trusted decoder's eight-byte search for
// a string's end or next escape finds the first quote or backslash, never
// one after it (a borrow from a lower byte must not mark a higher one).
func TestQuoteOrSlashIsFirstOne(t *testing.T) {
	checkFindsFirst(t, rand.New(rand.NewPCG(5, 6)), "aZ09 \"\\\x00\x01\x21\x5b\x5d\x5c\x22\x23\x7f\x80\xff#",
		func(b byte) bool { return b == '"' || b == '\\' }, "quoteOrSlash",
		func(s []byte, i int) int { return quoteOrSlash(string(s), i) })
}

// TestHex4ReadsWhatParseUintReads: four hex digits of either case are
// their value; anything else among them is refused.
func TestHex4ReadsWhatParseUintReads(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := "0123456789abcdefABCDEFgG/:@`\x00\xff"
	for range 200000 {
		var b [4]byte
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		want, err := strconv.ParseUint(string(b[:]), 16, 32)
		got, ok := hex4(string(b[:]))
		if ok != (err == nil) || ok && uint64(got) != want {
			t.Fatalf("hex4(%q) = %d, %v; ParseUint: %d, %v", b, got, ok, want, err)
		}
	}
}
