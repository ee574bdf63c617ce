package bot

import (
	"strings"
	"testing"
)

func TestSafeLog(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":                   "plain text",
		"a\n::error::x":                "a\n: :error::x",
		"  ::warning::x":               "  : :warning::x",
		"a::b":                         "a::b",
		"x ##[error]y":                 "x ## [error]y",
		"cr\r::error::x":               `cr\u000d::error::x`,
		"nel\u0085::x and ls\u2028::y": `nel\u0085::x and ls\u2028::y`,
		"tab\tand\nnewline stay":       "tab\tand\nnewline stay",
	} {
		if got := SafeLog(in); got != want {
			t.Errorf("SafeLog(%q) = %q, want %q", in, got, want)
		}
		for _, line := range strings.Split(SafeLog(in), "\n") {
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") || strings.Contains(line, "##[") {
				t.Errorf("SafeLog(%q) leaves a command line %q", in, line)
			}
		}
	}
}

func FuzzSafeLog(f *testing.F) {
	f.Add("a\n::error::x")
	f.Add("\r\n ::x ##[y")
	f.Fuzz(func(t *testing.T, s string) {
		for _, line := range strings.Split(SafeLog(s), "\n") {
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") || strings.Contains(line, "##[") || strings.ContainsAny(line, "\r\u0085\u2028\u2029") {
				t.Fatalf("SafeLog(%q) leaves %q", s, line)
			}
		}
	})
}
