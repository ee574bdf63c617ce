package jsonread

import "testing"

// A marked password among numbers, literals and strings is found with
// no allocation besides the value's text and the secret's own copy: the
// walk boxes none of the values it steps over (each once took a slab of
// its own, 28 MB for a 10k plan).
func TestMarkedStringsAllocatesOnlyTheSecret(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own: counted without it (go test without -race)")
	}
	raw := []byte(`{"count":3,"enabled":true,"name":"web-1","password":"pw-1","ports":[80,443],"ratio":0.5,"tags":{"a":"b"},"zone":null}`)
	mask, err := DecodeRaw([]byte(`{"password":true,"ports":[false,false],"tags":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	add := func(s string, _ SecretKind) { found = append(found, s) }
	allocs := testing.AllocsPerRun(100, func() {
		found = found[:0]
		if err := MarkedStrings(raw, mask, add); err != nil {
			t.Fatal(err)
		}
	})
	if len(found) != 1 || found[0] != "pw-1" {
		t.Fatalf("found %q, want the password", found)
	}
	if allocs > 3 { // the value's text as a string, the list of what was found, and the secret's copy
		t.Errorf("%v allocations a walk, want at most 3", allocs)
	}
}
