package bot

import (
	"strings"
	"testing"
)

// TestActionInputsCheckedTogether: every bad input stops the step before
// anything runs, named with what it accepts, all of them at once.
func TestActionInputsCheckedTogether(t *testing.T) {
	for input, want := range map[string]string{
		"INPUT_COMMENT-MODE": "sometimes",
		"INPUT_JOB-SUMMARY":  "maybe",
		"INPUT_LABELS":       "perhaps",
		"INPUT_MODE":         "sideways",
		"INPUT_FLAVOR":       "pulumi",
		"INPUT_VERIFY":       "often",
		"INPUT_REGISTRY":     "nonsense",
		"INPUT_VERIFY-HOSTS": "a/b",
	} {
		_, err := readActionInputs(actionEnv(map[string]string{"INPUT_GITHUB-TOKEN": "t", input: want}))
		name := strings.ToLower(strings.TrimPrefix(input, "INPUT_"))
		if err == nil || !strings.Contains(err.Error(), want) && !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: %v", input, want, err)
		}
	}
	_, err := readActionInputs(actionEnv(map[string]string{"INPUT_JOB-SUMMARY": "maybe", "INPUT_MODE": "sideways"}))
	for _, want := range []string{"job-summary", "sideways", "github-token is empty"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("three bad inputs: %v lacks %q", err, want)
		}
	}
	in, err := readActionInputs(actionEnv(map[string]string{"INPUT_GITHUB-TOKEN": "t"}))
	if err != nil || in.LockFiles != "auto" || !in.JobSummary || !in.Labels || in.Verifier == nil || in.CommentMode != ModeUpdate {
		t.Errorf("defaults: %+v %v", in, err)
	}
}
