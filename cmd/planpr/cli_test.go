package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestExitCodes(t *testing.T) {
	tests := []struct {
		args []string
		want int
	}{
		{nil, exitUsage},
		{[]string{"frobnicate"}, exitUsage},
		{[]string{"render"}, exitUsage},
		{[]string{"render", "--format", "yaml", "x.json"}, exitUsage},
		{[]string{"render", "--no-such-flag", "x.json"}, exitUsage},
		{[]string{"render", "does-not-exist.json"}, exitError},
		{[]string{"render", "../../testdata/example/plan.json"}, exitOK},
		{[]string{"render", "--help"}, exitOK},
		{[]string{"version"}, exitOK},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if got := run(tt.args, strings.NewReader(""), &stdout, &stderr); got != tt.want {
			t.Errorf("planpr %v: exit %d, want %d (stderr %q)", tt.args, got, tt.want, stderr.String())
		}
	}
}

func TestLabel(t *testing.T) {
	for arg, want := range map[string][2]string{
		"prod=plans/a.json": {"prod", "plans/a.json"},
		"plans/a=b.json":    {"plans/a=b.json", "plans/a=b.json"},
		"plain.json":        {"plain.json", "plain.json"},
		"=odd.json":         {"=odd.json", "=odd.json"},
	} {
		name, path := label(arg)
		if name != want[0] || path != want[1] {
			t.Errorf("label(%q) = %q, %q; want %q, %q", arg, name, path, want[0], want[1])
		}
	}
}
