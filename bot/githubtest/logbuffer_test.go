package githubtest

import (
	"log/slog"
	"testing"
)

// TestRepeatedKeys: a key logged twice in one line is found, a key in a
// nested group or another line is not.
func TestRepeatedKeys(t *testing.T) {
	var logs LogBuffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	log.With("pr", 1).Info("one", "pr", 1)
	log.Info("two", "pr", 2, slog.Group("g", "pr", 3))
	got := logs.RepeatedKeys()
	if len(got) != 1 {
		t.Fatalf("repeated: %q, want one line", got)
	}
}
