package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/render/report"
)

// planprBinary is this test binary under the name planpr, which
// TestMain's testscript.Main runs as the real command.
func planprBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "planpr")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestServeSurvivesKill9: a server killed with SIGKILL after answering 20
// deliveries and before doing them (GitHub held every request) leaves them
// in its SQLite queue; a new server on the same data directory does each
// once: 20 pull requests, one comment each.
func TestServeSurvivesKill9(t *testing.T) {
	const appID, installation = 4242, 77
	fake := githubtest.New()
	defer fake.Close()
	fake.AddInstallation(appID, installation)
	lockBefore := "provider \"registry.opentofu.org/hashicorp/aws\" {\n  version = \"5.9.0\"\n  hashes = [\"h1:a=\", \"zh:1111\"]\n}\n"
	lockAfter := "provider \"registry.opentofu.org/hashicorp/aws\" {\n  version = \"6.0.0\"\n  hashes = [\"h1:b=\", \"zh:2222\"]\n}\n"
	fake.AddFile("base0", "envs/prod/.terraform.lock.hcl", []byte(lockBefore))
	for pr := 1; pr <= 20; pr++ {
		head := fmt.Sprintf("head-%d", pr)
		fake.AddPR(githubtest.PR{Number: pr, BaseSHA: "base0", HeadSHA: head, HeadRef: "b", HeadOwner: "Codertocat",
			Files: []githubtest.File{{Name: "envs/prod/.terraform.lock.hcl", Status: "modified"}}})
		fake.AddFile(head, "envs/prod/.terraform.lock.hcl", []byte(lockAfter))
	}
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "app.pem")
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}), 0o600)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	bin := planprBinary(t)
	start := func(name string) *exec.Cmd {
		cmd := exec.Command(bin, "serve")
		cmd.Env = append(os.Environ(), "PLANPR_APP_ID=4242", "PLANPR_PRIVATE_KEY="+keyFile, "PLANPR_WEBHOOK_SECRET=s3cret",
			"PLANPR_DATA_DIR="+filepath.Join(dir, "data"), "PLANPR_LISTEN="+addr, "PLANPR_REDELIVER_EVERY=off",
			"GITHUB_API_URL="+fake.URL, "GITHUB_GRAPHQL_URL="+fake.URL+"/graphql")
		log, _ := os.Create(filepath.Join(dir, name+".log"))
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		waitFor(t, func() bool {
			resp, err := http.Get("http://" + addr + "/healthz")
			if err == nil {
				resp.Body.Close()
			}
			return err == nil && resp.StatusCode == 200
		})
		return cmd
	}
	first := start("first")
	release := fake.Hold() // nothing the first server asks of GitHub is answered
	raw, err := os.ReadFile("../../testdata/payloads/pull_request-synchronize.json")
	if err != nil {
		t.Fatal(err)
	}
	for pr := 1; pr <= 20; pr++ {
		var ev map[string]any
		json.Unmarshal(raw, &ev)
		ev["installation"] = map[string]any{"id": installation}
		ev["number"] = pr
		p := ev["pull_request"].(map[string]any)
		p["number"] = pr
		p["head"].(map[string]any)["sha"] = fmt.Sprintf("head-%d", pr)
		body, _ := json.Marshal(ev)
		resp, _, err := githubtest.Deliver("http://"+addr+"/webhook", "pull_request", fmt.Sprintf("k9-%d", pr), body, githubtest.Sign("s3cret", body))
		if err != nil || resp.StatusCode != http.StatusAccepted {
			t.Fatalf("delivery %d: %v %v", pr, resp, err)
		}
	}
	time.Sleep(300 * time.Millisecond) // the first jobs are running, held at GitHub
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.Wait()
	release()
	if n := len(fake.Comments(1)); n != 0 {
		t.Fatalf("a comment was posted before the crash")
	}

	start("second")
	waitFor(t, func() bool {
		for pr := 1; pr <= 20; pr++ {
			if lockComments(fake, pr) != 1 {
				return false
			}
		}
		return true
	})
	time.Sleep(300 * time.Millisecond) // nothing more comes
	for pr := 1; pr <= 20; pr++ {
		if n := lockComments(fake, pr); n != 1 {
			t.Errorf("PR %d: %d lock comments", pr, n)
		}
	}
	log, _ := os.ReadFile(filepath.Join(dir, "second.log"))
	if !strings.Contains(string(log), "queued again") && !strings.Contains(string(log), `"msg":"delivery done"`) {
		t.Errorf("second server's log:\n%s", log)
	}
}

func lockComments(fake *githubtest.Server, pr int) int {
	n := 0
	for _, c := range fake.Comments(pr) {
		if m, ok := report.ParseMarker(c.Body); ok && m.Key == "locks" {
			n++
		}
	}
	return n
}
