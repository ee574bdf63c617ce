package action

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestActionsAndImagesArePinnedByDigest: every third-party action a
// workflow or the composite action runs is pinned to a commit (its tag in
// a comment), and every base image to a digest: a tag can be moved to
// code nobody reviewed, in a workflow that holds id-token, attestations
// and packages: write.
func TestActionsAndImagesArePinnedByDigest(t *testing.T) {
	root, _ := filepath.Abs("..")
	files, _ := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.yml"))
	files = append(files, filepath.Join(root, "action.yml"))
	uses := regexp.MustCompile(`(?m)^\s*(?:-\s+)?uses:\s*(\S+)`)
	pinned := regexp.MustCompile(`^[\w.-]+/[\w./-]+@[0-9a-f]{40}$`)
	seen := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range uses.FindAllStringSubmatch(string(b), -1) {
			seen++
			if ref := m[1]; !strings.HasPrefix(ref, "./") && !pinned.MatchString(ref) {
				t.Errorf("%s: %s is not pinned to a commit", filepath.Base(f), ref)
			}
		}
	}
	if seen < 10 {
		t.Fatalf("found only %d uses", seen)
	}
	from := regexp.MustCompile(`(?m)^FROM\s+(\S+)`)
	for _, name := range []string{"Dockerfile", "Dockerfile.release"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range from.FindAllStringSubmatch(string(b), -1) {
			if !regexp.MustCompile(`@sha256:[0-9a-f]{64}$`).MatchString(m[1]) {
				t.Errorf("%s: FROM %s is not pinned to a digest", name, m[1])
			}
		}
	}
}
