package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot"
	"github.com/planpr/planpr/bot/githubtest"

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
			e.Setenv("PAYLOADS", filepath.Join(repo, "..", "shared", "github", "payloads"))
			fake := githubtest.New()
			e.Defer(fake.Close)
			e.Values["fake"] = fake
			e.Setenv("GITHUB_API_URL", fake.URL)
			e.Setenv("GITHUB_GRAPHQL_URL", fake.URL+"/graphql")
			e.Setenv("FAKE_URL", fake.URL)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"fakegh": fakegh},
	})
}

// fakegh drives the fake GitHub from scripts:
//
//	fakegh pr N BASE HEAD [BRANCH OWNER] [FILE...]   store a pull request and its changed files
//	fakegh file REF PATH LOCALFILE                   store a file at a commit
//	fakegh comment N USER LOCALFILE                  post a comment as someone
//	fakegh comments N                                print the comments, oldest first
//	fakegh count N KEY                               print how many comments carry KEY's marker
//	fakegh labels N                                  print the labels
//	fakegh fault MATCH STATUS [RETRY-AFTER]          fail the next matching request
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
	case "count":
		count := 0
		for _, c := range fake.Comments(n) {
			if m, ok := bot.ParseMarker(c.Body); ok && m.Key == args[2] {
				count++
			}
		}
		fmt.Fprintf(ts.Stdout(), "%d\n", count)
	case "labels":
		fmt.Fprintln(ts.Stdout(), strings.Join(fake.Labels(n), " "))
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
