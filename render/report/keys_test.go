package report

import (
	"github.com/planpr/planpr/render/inputs"
	"testing"
)

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

// TestMissingAreTheExpectedRootsNoPlanBrought: a root the roots input
// expects and no plan or stream of the run is, is a failed row.
func TestMissingAreTheExpectedRootsNoPlanBrought(t *testing.T) {
	got := Missing([]string{"envs/prod", "envs/staging/", "envs/qa"}, []inputs.Root{{Name: "envs/prod", Root: "envs/prod"}, {Name: "staging", Root: "envs/staging"}})
	if len(got) != 1 || got[0].Name != "envs/qa" {
		t.Errorf("missing %+v", got)
	}
}
