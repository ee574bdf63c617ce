package report

import (
	"slices"
	"strings"
	"testing"
)

// TestRepoFailOn: a list or a string of conditions; none is an empty
// policy, not the runner's; nothing said is nil; what cannot be read or
// is unknown is an error naming the file.
func TestRepoFailOn(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want FailOn
		err  string
	}{
		{"fail_on: [errored, destroy]\n", FailOn{"errored", "destroy"}, ""},
		{"fail_on: replace, drift\n", FailOn{"replace", "drift"}, ""},
		{"fail_on: none\n", FailOn{}, ""},
		{"other: 1\n", nil, ""},
		{"fail_on: 3\n", nil, ""},
		{"fail_on: [sometimes]\n", nil, `.github/planpr.yml: fail-on "sometimes"`},
		{"fail_on: [\n", nil, ".github/planpr.yml is not YAML"},
	} {
		got, err := RepoFailOn([]byte(tc.src))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.src, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("%q: %#v %v, want %#v", tc.src, got, err, tc.want)
		}
	}
}
