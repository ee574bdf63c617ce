package review

import (
	"testing"

	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/tofujson"
)

func TestPathStrings(t *testing.T) {
	m := mask.NewMasker()
	m.AddSecret("hunter2", tofujson.SecretKey)
	for _, tc := range []struct {
		path         []any
		plain, shown string
	}{
		{[]any{"tags", "Name"}, "tags.Name", "tags.Name"},
		{[]any{"ingress", 0.0, "cidr"}, "ingress[0].cidr", "ingress[0].cidr"},
		{[]any{"secrets", "hunter2"}, "secrets.hunter2", "secrets." + mask.Masked},
	} {
		if got := tofujson.PathString(tc.path); got != tc.plain {
			t.Errorf("tofujson.PathString(%v) = %s, want %s", tc.path, got, tc.plain)
		}
		if got := MaskedPath(m, tc.path); got != tc.shown {
			t.Errorf("MaskedPath(%v) = %s, want %s", tc.path, got, tc.shown)
		}
	}
	if DeleteWhy("delete_because_each_key") == "" || ReplaceWhy("replace_by_triggers") == "" || ReplaceWhy("") != "" {
		t.Error("reasons not said")
	}
}
