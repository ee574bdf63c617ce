//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// tinyPlan is a plan of one creation, as `terragrunt run-all show -json`
// writes one per module.
const tinyPlan = `{"format_version":"1.2","terraform_version":"1.9.0","planned_values":{"root_module":{}},"resource_changes":[{"address":"null_resource.a","mode":"managed","type":"null_resource","name":"a","provider_name":"registry.opentofu.org/hashicorp/null","change":{"actions":["create"],"before":null,"after":{"triggers":null},"after_unknown":{"id":true},"before_sensitive":false,"after_sensitive":{}}}],"configuration":{"root_module":{}}}`

// TestManyPlansInOneFile: a file of thousands of plans one after another
// was split into a file per plan (30,000 files, 104 s for 30k plans), and
// `render --format text` ran out of descriptors. Its plans are now read as
// sections of the one file: nothing is written to disk, one descriptor
// serves them all, and every format reads them.
func TestManyPlansInOneFile(t *testing.T) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skip(err)
	}
	low := lim
	low.Cur = 256
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skip(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)

	dir := t.TempDir()
	plans := filepath.Join(dir, "plans.json")
	const n = 2000
	if err := os.WriteFile(plans, []byte(strings.Repeat(tinyPlan+"\n", n)), 0o600); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, format := range []string{"text", "markdown", "json"} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"render", "--format", format, plans}, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr.String())
		}
		if format == "json" && !strings.Contains(stdout.String(), fmt.Sprintf(`"add": %d`, n)) {
			t.Errorf("json: the %d creations are not counted:\n%.2000s", n, stdout.String())
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("%s: %d files written to the temporary directory", format, len(left))
		}
	}
}
