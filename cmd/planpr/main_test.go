package main

import (
	"archive/zip"
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/githubtest"
	"github.com/planpr/planpr/render/report"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"planpr": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script against the
// real planpr command. `go test ./cmd/planpr -update` rewrites their
// expected outputs.
func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(repo, "testdata", "script"),
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(e *testscript.Env) error {
			e.Setenv("REPO", repo)
			e.Setenv("PAYLOADS", filepath.Join(repo, "testdata", "payloads"))
			fake := githubtest.New()
			e.Defer(fake.Close)
			e.Values["fake"] = fake
			e.Setenv("GITHUB_API_URL", fake.URL)
			e.Setenv("GITHUB_GRAPHQL_URL", fake.URL+"/graphql")
			e.Setenv("FAKE_URL", fake.URL)
			// No registry is reachable from the tests: lock hashes are
			// verified only where a script asks (and points at one).
			e.Setenv("INPUT_VERIFY", "false")
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond != "strace" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			_, err := exec.LookPath("strace")
			return err == nil || os.Getenv("PLANPR_TEST_STRACE") == "required", nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"fakegh": fakegh, "freeport": freeport, "webhook": webhook, "waitcount": waitcount, "appkey": appkey, "setjson": setjson,
			"opens": opens,
		},
	})
}

// fakegh drives the fake GitHub from scripts:
//
//	fakegh pr N BASE HEAD [BRANCH OWNER] [FILE...]   store a pull request and its changed files
//	fakegh mergebase N SHA                           where pull request N branched off its base
//	fakegh file REF PATH LOCALFILE                   store a file at a commit
//	fakegh comment N USER LOCALFILE                  post a comment as someone
//	fakegh comments N                                print the comments, oldest first
//	fakegh count N KEY                               print how many comments carry KEY's marker
//	fakegh body N KEY                                print the comments that carry KEY's marker
//	fakegh labels N                                  print the labels
//	fakegh fault MATCH STATUS [RETRY-AFTER]          fail the next matching request
//	fakegh checks SHA                                print the check runs on a commit
//	fakegh label N LABEL USER                        add a label as someone (unlabel removes it)
//	fakegh permission USER PERMISSION                set someone's access (admin, write, read…)
func fakegh(ts *testscript.TestScript, neg bool, args []string) {
	fake := ts.Value("fake").(*githubtest.Server)
	if len(args) < 2 {
		ts.Fatalf("usage: fakegh pr|file|comment|comments|count|labels|fault ...")
	}
	n, _ := strconv.Atoi(args[1])
	switch args[0] {
	case "pr":
		pr := githubtest.PR{Number: n, BaseSHA: args[2], HeadSHA: args[3], HeadRef: "feature", HeadOwner: "octo"}
		files := args[4:]
		if len(files) >= 2 && !strings.Contains(files[0], ".") {
			pr.HeadRef, pr.HeadOwner, files = files[0], files[1], files[2:]
		}
		for _, f := range files {
			pr.Files = append(pr.Files, githubtest.File{Name: f, Status: "modified"})
		}
		fake.AddPR(pr)
	case "mergebase":
		fake.SetMergeBase(n, args[2])
	case "file":
		fake.AddFile(args[1], args[2], []byte(ts.ReadFile(args[3])))
	case "comment":
		fake.AddComment(n, args[2], ts.ReadFile(args[3]))
	case "comments":
		for _, c := range fake.Comments(n) {
			hidden := ""
			if c.Minimized {
				hidden = " (minimized)"
			}
			fmt.Fprintf(ts.Stdout(), "--- %d %s%s\n%s\n", c.ID, c.User, hidden, c.Body)
		}
	case "body":
		for _, c := range fake.Comments(n) {
			if m, ok := report.ParseMarker(c.Body); ok && m.Key == args[2] {
				fmt.Fprintln(ts.Stdout(), c.Body)
			}
		}
	case "count":
		count := 0
		for _, c := range fake.Comments(n) {
			if m, ok := report.ParseMarker(c.Body); ok && m.Key == args[2] {
				count++
			}
		}
		fmt.Fprintf(ts.Stdout(), "%d\n", count)
	case "labels":
		fmt.Fprintln(ts.Stdout(), strings.Join(fake.Labels(n), " "))
	case "install":
		app, _ := strconv.ParseInt(args[1], 10, 64)
		inst, _ := strconv.ParseInt(args[2], 10, 64)
		fake.AddInstallation(app, inst)
	case "artifact":
		run, _ := strconv.ParseInt(args[1], 10, 64)
		id, _ := strconv.ParseInt(args[2], 10, 64)
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, f := range args[4:] {
			w, _ := zw.Create(filepath.Base(f))
			w.Write([]byte(ts.ReadFile(f)))
		}
		zw.Close()
		fake.AddArtifact(run, githubtest.Artifact{ID: id, Name: args[3], Zip: buf.Bytes()})
	case "checks":
		for _, c := range fake.CheckRuns(args[1]) {
			fmt.Fprintf(ts.Stdout(), "--- check %q %s %s (%d updates, %d annotations)\ntitle: %s\n", c.Name, c.Status, c.Conclusion, c.Updates, len(c.Annotations), c.Title)
			for _, a := range c.Annotations {
				fmt.Fprintf(ts.Stdout(), "annotation %s:%d %s: %s\n", a.Path, a.StartLine, a.Level, a.Title)
			}
			fmt.Fprintf(ts.Stdout(), "summary:\n%s\n", c.Summary)
		}
	case "label":
		fake.Label(n, args[2], args[3])
	case "unlabel":
		fake.Unlabel(n, args[2], args[3])
	case "permission":
		fake.SetPermission(args[1], args[2])
	case "merge":
		fake.Merge(n, args[2])
	case "fault":
		status, _ := strconv.Atoi(args[2])
		f := githubtest.Fault{Match: strings.ReplaceAll(args[1], "_", " "), Status: status}
		if len(args) > 3 {
			f.RetryAfter = args[3]
		}
		fake.Inject(f)
	default:
		ts.Fatalf("fakegh: unknown command %q", args[0])
	}
}

// freeport VAR sets VAR to a free loopback address.
func freeport(ts *testscript.TestScript, neg bool, args []string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	ts.Setenv(args[0], ln.Addr().String())
	ln.Close()
}

// appkey FILE writes a new RSA private key for a GitHub App.
func appkey(ts *testscript.TestScript, neg bool, args []string) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	ts.Check(err)
	pemText := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), pemText, 0o600))
}

// webhook ADDR EVENT DELIVERY FILE [SECRET] posts a delivery signed with
// $PLANPR_WEBHOOK_SECRET (or SECRET), waiting for the server to listen,
// and prints the status code.
func webhook(ts *testscript.TestScript, neg bool, args []string) {
	body := []byte(ts.ReadFile(args[3]))
	secret := ts.Getenv("PLANPR_WEBHOOK_SECRET")
	if len(args) > 4 {
		secret = args[4]
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	var resp *http.Response
	var err error
	for i := 0; i < 100; i++ {
		req, _ := http.NewRequest(http.MethodPost, "http://"+args[0]+"/webhook", bytes.NewReader(body))
		req.Header.Set("X-GitHub-Event", args[1])
		req.Header.Set("X-GitHub-Delivery", args[2])
		req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(m.Sum(nil)))
		if resp, err = http.DefaultClient.Do(req); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Check(err)
	resp.Body.Close()
	fmt.Fprintf(ts.Stdout(), "%d\n", resp.StatusCode)
}

// waitcount N KEY COUNT waits until pull request N has COUNT comments for KEY.
func waitcount(ts *testscript.TestScript, neg bool, args []string) {
	fake := ts.Value("fake").(*githubtest.Server)
	n, _ := strconv.Atoi(args[0])
	want, _ := strconv.Atoi(args[2])
	for i := 0; i < 400; i++ {
		count := 0
		for _, c := range fake.Comments(n) {
			if m, ok := report.ParseMarker(c.Body); ok && m.Key == args[1] {
				count++
			}
		}
		if count == want {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	ts.Fatalf("PR %d never had %d comments for %s", n, want, args[1])
}

// setjson FILE PATH VALUE sets a field of a JSON file, a whole number as a number (PATH is dot
// separated, e.g. pull_request.updated_at): event payloads as a test needs
// them.
func setjson(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: setjson FILE PATH VALUE")
	}
	var doc map[string]any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc))
	m := doc
	keys := strings.Split(args[1], ".")
	for _, k := range keys[:len(keys)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	var v any = args[2]
	if n, err := strconv.ParseInt(args[2], 10, 64); err == nil {
		v = n // a number stays one: pull_request.number
	}
	m[keys[len(keys)-1]] = v
	b, err := json.Marshal(doc)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b, 0o644))
}

// opens counts, in a trace `strace -f -e trace=openat -o TRACE` wrote,
// the successful opens of each file named, and fails unless each was
// opened N times:
//
//	opens TRACE N FILE...
//
// Without strace the script is skipped, unless PLANPR_TEST_STRACE is
// "required" (CI sets it): then it fails.
func opens(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 3 {
		ts.Fatalf("usage: opens TRACE N FILE...")
	}
	want, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("opens: %q is no count", args[1])
	}
	trace := ts.ReadFile(args[0])
	for _, name := range args[2:] {
		// As given (relative to the script's directory) or absolute.
		spellings := []string{strconv.Quote(name) + ",", strconv.Quote(ts.MkAbs(name)) + ","}
		got := 0
		for _, line := range strings.Split(trace, "\n") {
			// 1234  openat(AT_FDCWD, "/abs/plan.json", O_RDONLY|O_CLOEXEC) = 7
			if !strings.Contains(line, "openat(") || strings.Contains(line, "= -1 ") {
				continue
			}
			if strings.Contains(line, spellings[0]) || strings.Contains(line, spellings[1]) {
				got++
			}
		}
		if (got == want) == neg {
			ts.Fatalf("%s opened %d times, want %d", name, got, want)
		}
	}
}
