package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestLockdiffVerifyMakesNoConnection: `planpr lockdiff --verify` on a
// lock file naming 127.0.0.1:PORT connects to nothing, and an open port
// and a closed one read the same.
func TestLockdiffVerifyMakesNoConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	closedAddr := closed.Addr().String()
	closed.Close()

	outputs := map[string]string{}
	for name, host := range map[string]string{"open": ln.Addr().String(), "closed": closedAddr} {
		dir := t.TempDir()
		lock := func(version, hash string) string {
			return fmt.Sprintf("provider %q {\n  version = %q\n  hashes = [%q]\n}\n", host+"/acme/x", version, hash)
		}
		before, after := filepath.Join(dir, "before.hcl"), filepath.Join(dir, "after.hcl")
		os.WriteFile(before, []byte(lock("1.0.0", "zh:"+strings.Repeat("1", 64))), 0o600)
		os.WriteFile(after, []byte(lock("1.1.0", "zh:"+strings.Repeat("2", 64))), 0o600)
		var stdout, stderr bytes.Buffer
		if code := run([]string{"lockdiff", "--verify", "--cache-dir", "", "--format", "json", before, after}, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr.String())
		}
		out := strings.ReplaceAll(stdout.String(), host, "HOST")
		out = strings.ReplaceAll(out, filepath.Dir(before), "DIR")
		if !strings.Contains(out, `"status": "unchecked"`) || !strings.Contains(out, "planpr contacts only registry.opentofu.org and registry.terraform.io") {
			t.Errorf("%s port:\n%s", name, out)
		}
		outputs[name] = out
	}
	if accepted.Load() != 0 {
		t.Errorf("%d connections to the port the lock file names", accepted.Load())
	}
	if outputs["open"] != outputs["closed"] {
		t.Errorf("open and closed ports read differently:\n%s\n---\n%s", outputs["open"], outputs["closed"])
	}
}
