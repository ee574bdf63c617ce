package setup

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDeployDocsListTheAppsPermissions: the deployment guide names every
// permission the App's manifest asks for, with its access, and no other.
func TestDeployDocsListTheAppsPermissions(t *testing.T) {
	doc, err := os.ReadFile("../../docs/deploy.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\(pull requests[^)]*\)`).Find(doc)
	if m == nil {
		t.Fatal("docs/deploy.md names no permissions")
	}
	// "(pull requests, checks: write; contents, actions, metadata: read)"
	said := map[string]string{}
	for _, part := range strings.Split(strings.Trim(string(m), "()"), ";") {
		names, access, _ := strings.Cut(part, ":")
		for _, n := range strings.Split(names, ",") {
			said[strings.ReplaceAll(strings.TrimSpace(n), " ", "_")] = strings.TrimSpace(access)
		}
	}
	asked := NewAppManifest("planpr", "https://example.com").DefaultPermissions
	for name, access := range asked {
		if said[name] != access {
			t.Errorf("the manifest asks %s: %s; docs/deploy.md says %q", name, access, said[name])
		}
	}
	for name := range said {
		if _, ok := asked[name]; !ok {
			t.Errorf("docs/deploy.md names %s, which the manifest does not ask for (asks %v)", name, slices.Sorted(maps.Keys(asked)))
		}
	}
}
