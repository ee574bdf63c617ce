package report

import "testing"

func TestKeysAndTitles(t *testing.T) {
	for key, want := range map[string]string{"": "planpr", ".": "planpr", LocksKey: "planpr · lock files", "prod": "planpr · prod", "example": "planpr · example"} {
		if got := Title(key); got != want {
			t.Errorf("Title(%q) = %q, want %q", key, got, want)
		}
	}
	if Key(nil) != LocksKey || Key([]string{"a", "b"}) != "a,b" {
		t.Errorf("Key: %q %q", Key(nil), Key([]string{"a", "b"}))
	}
}
