package words

import "testing"

func TestWords(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Count(0, "change"), "0 changes"},
		{Count(1, "change"), "1 change"},
		{Count(2, "sensitive value"), "2 sensitive values"},
		{Plural(1, "action"), "action"},
		{Plural(3, "action"), "actions"},
		{IsAre(1), "is"},
		{IsAre(0), "are"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
