// Package action holds the composite action's installer (install.sh); its
// tests run action.yml's steps as a runner would, against a fake release
// server and a fake GitHub on loopback.
package action

import (
	"archive/tar"
	"bytes"
	"cmp"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/planpr/planpr/bot/githubtest"
)

// actionFile is action.yml, as much of it as a runner reads.
type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []step `yaml:"steps"`
	} `yaml:"runs"`
}

type step struct {
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	With  map[string]string `yaml:"with"`
	Run   string            `yaml:"run"`
}

// runner runs a composite action's steps on this machine, as GitHub's
// runner does for the parts the action uses: ${{ }} expressions over
// github, runner, inputs and steps; if conditions comparing them; bash
// steps with GITHUB_OUTPUT and GITHUB_PATH files. actions/cache (always a
// miss here) and actions/setup-go (Go is already here) are recorded and
// skipped; any other action fails the test.
type runner struct {
	t       *testing.T
	dir     string
	env     map[string]string // the job's environment
	github  map[string]string // github.action_ref, action_repository, action_path
	inputs  map[string]string
	outputs map[string]map[string]string // step id -> outputs
	path    []string                     // GITHUB_PATH additions, newest first
	log     bytes.Buffer                 // every step's output
	used    []string                     // the actions the steps used
	took    []string                     // each bash step's time
}

var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// value evaluates a context path: inputs.x, steps.id.outputs.x, github.x,
// runner.os, runner.arch; or PATH == PATH, true or false.
func (r *runner) value(path string) string {
	if left, right, ok := strings.Cut(path, "=="); ok {
		return strconv.FormatBool(r.value(strings.TrimSpace(left)) == r.value(strings.TrimSpace(right)))
	}
	parts := strings.Split(path, ".")
	switch {
	case parts[0] == "inputs" && len(parts) == 2:
		return r.inputs[parts[1]]
	case parts[0] == "steps" && len(parts) == 4 && parts[2] == "outputs":
		return r.outputs[parts[1]][parts[3]]
	case parts[0] == "github" && len(parts) == 2:
		if v, ok := r.github[parts[1]]; ok {
			return v
		}
	case path == "runner.os":
		return r.env["RUNNER_OS"]
	case path == "runner.arch":
		return r.env["RUNNER_ARCH"]
	}
	r.t.Fatalf("action.yml uses an expression this test runner does not know: %s", path)
	return ""
}

func (r *runner) expand(s string) string {
	return expression.ReplaceAllStringFunc(s, func(m string) string { return r.value(expression.FindStringSubmatch(m)[1]) })
}

// condition evaluates an if: PATH == 'literal', PATH != 'literal'.
func (r *runner) condition(cond string) bool {
	if cond == "" {
		return true
	}
	for _, op := range []string{"==", "!="} {
		if left, right, ok := strings.Cut(cond, op); ok {
			v, lit := r.value(strings.TrimSpace(left)), strings.Trim(strings.TrimSpace(right), "'")
			return (v == lit) == (op == "==")
		}
	}
	r.t.Fatalf("action.yml has a condition this test runner does not know: %s", cond)
	return false
}

// run runs every step until one fails; it returns that step's index and
// its error, or -1.
func (r *runner) run(a *actionFile) (int, error) {
	for i, s := range a.Runs.Steps {
		if !r.condition(s.If) {
			continue
		}
		if s.Uses != "" {
			name, _, _ := strings.Cut(s.Uses, "@")
			if name != "actions/cache" && name != "actions/setup-go" {
				r.t.Fatalf("step %d uses %s, which this test runner cannot stand in for", i, s.Uses)
			}
			r.used = append(r.used, name)
			continue
		}
		if s.Shell != "bash" {
			r.t.Fatalf("step %d: shell %q; the action's steps run in bash on every runner", i, s.Shell)
		}
		start := time.Now()
		err := r.bash(s)
		r.took = append(r.took, fmt.Sprintf("%s %v", cmp.Or(s.ID, strings.Fields(s.Run)[1]), time.Since(start).Round(time.Millisecond)))
		if err != nil {
			return i, err
		}
	}
	return -1, nil
}

func (r *runner) bash(s step) error {
	outFile := filepath.Join(r.dir, fmt.Sprintf("output-%d", len(r.outputs)))
	pathFile := filepath.Join(r.dir, fmt.Sprintf("path-%d", len(r.outputs)))
	for _, f := range []string{outFile, pathFile} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", r.expand(s.Run))
	cmd.Dir = r.env["GITHUB_WORKSPACE"]
	env := map[string]string{"GITHUB_OUTPUT": outFile, "GITHUB_PATH": pathFile,
		"PATH": strings.Join(append(slicesClone(r.path), os.Getenv("PATH")), string(os.PathListSeparator))}
	for k, v := range r.env {
		env[k] = v
	}
	for k, v := range s.Env {
		env[k] = r.expand(v)
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdout, cmd.Stderr = &r.log, &r.log
	err := cmd.Run()
	outputs := map[string]string{}
	b, _ := os.ReadFile(outFile)
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(strings.TrimRight(line, "\n"), "="); ok {
			outputs[k] = v
		}
	}
	if s.ID != "" {
		r.outputs[s.ID] = outputs
	}
	p, _ := os.ReadFile(pathFile)
	for line := range strings.Lines(string(p)) {
		r.path = append([]string{strings.TrimSpace(line)}, r.path...)
	}
	return err
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// release is a fake GitHub serving release downloads and, under /api/,
// the releases list and (through to api) the rest of the API.
type release struct {
	*httptest.Server
	files    map[string][]byte // path -> content
	releases string            // the releases API's answer
}

func newRelease(t *testing.T, api *githubtest.Server) *release {
	rel := &release{files: map[string][]byte{}}
	target, _ := url.Parse(api.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	// A transport of its own: httptest.Server.Close closes the idle
	// connections of http.DefaultTransport, and another subtest's server
	// closing could cut a connection this proxy was about to use.
	transport := &http.Transport{}
	proxy.Transport = transport
	t.Cleanup(transport.CloseIdleConnections)
	rel.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/api/repos/planpr/planpr/releases":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, rel.releases)
		case r.URL.Path == "/api/repos/planpr/planpr/tags":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `[{"name": "v1.3.0-rc.1", "commit": {"sha": "`+strings.Repeat("c", 40)+`", "url": "u"}},
 {"name": "v1.2.3", "commit": {"sha": "`+strings.Repeat("a", 40)+`", "url": "u"}},
 {"name": "latest", "commit": {"sha": "`+strings.Repeat("a", 40)+`", "url": "u"}}]`)
		case strings.HasPrefix(r.URL.Path, "/api/"):
			r.URL.Path = strings.TrimPrefix(r.URL.Path, "/api")
			// The request's body is read whole first. Streamed, the
			// transport reads it once more after its declared length,
			// to check there is no more; when the answer's headers have
			// been written by then, the server has closed the body, that
			// read fails and the transport drops the connection with
			// the answer half sent (golang/go#40747): a comment POST
			// then ended in "unexpected EOF".
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
			proxy.ServeHTTP(w, r)
		default:
			b, ok := rel.files[r.URL.Path]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Write(b)
		}
	}))
	t.Cleanup(rel.Close)
	return rel
}

// publish serves a release of planpr for this machine: its archive and
// SHA256SUMS, as GoReleaser names them.
func (rel *release) publish(version string, archive []byte) string {
	name := fmt.Sprintf("planpr_%s_%s_%s.tar.gz", version, runtime.GOOS, runtime.GOARCH)
	base := "/planpr/planpr/releases/download/v" + version + "/"
	rel.files[base+name] = archive
	sum := sha256.Sum256(archive)
	rel.files[base+"SHA256SUMS"] = fmt.Appendf(nil, "%x  %s\n%x  planpr_%s_windows_arm64.zip\n", sum, name, sha256.Sum256([]byte("other")), version)
	return name
}

// buildArchive builds planpr at version into a tar.gz as GoReleaser does.
func buildArchive(t *testing.T, root, version string) []byte {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "planpr")
	// Built as go vet and the conformance build compile (no -trimpath,
	// cgo as it is): on a clean machine the packages are compiled once.
	build := exec.Command("go", "build", "-ldflags", "-X main.Version="+version, "-o", bin, "./cmd/planpr")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	exe, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range map[string][]byte{"planpr": exe, "README.md": []byte("# planpr\n")} {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(body)), ModTime: time.Unix(0, 0)}); err != nil {
			t.Fatal(err)
		}
		tw.Write(body)
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func runnerOS() string {
	return map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}[runtime.GOOS]
}

func runnerArch() string {
	return map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
}

// TestCompositeAction runs action.yml's steps: a release is downloaded,
// verified and run; a tampered archive, a missing release and an unknown
// platform stop the job before planpr runs, saying why; a branch builds
// planpr from the action's checkout.
func TestCompositeAction(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(raw, &a); err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml runs using %q", a.Runs.Using)
	}
	good := buildArchive(t, root, "1.2.3")
	toolCache := t.TempDir() // shared: the second good run finds it installed
	gh, attested := fakeGH(t)
	goodSum := sha256.Sum256(good)
	attest := func(commit string) { // the release workflow built the good archive from commit, at tag v1.2.3
		os.WriteFile(attested, fmt.Appendf(nil, "%x %s refs/tags/v1.2.3\n", goodSum, commit), 0o644)
	}

	for _, tc := range []struct {
		name, ref, arch, version string
		tamper                   bool
		poison                   bool   // the tool cache holds another binary, with the archive's sum beside it
		unattested               bool   // the release's archive matches its sums, but no attestation vouches for it
		builtFrom                string // the commit the release was built from (default: the one v1.2.3 tags)
		provenance               string
		wantErr                  string // in the failing step's output
		wantVersion              string // planpr --version of what ran
		wantLog                  string
	}{
		{name: "release", ref: "v1.2.3", wantVersion: "planpr 1.2.3", wantLog: "installed in"},
		{name: "cached release", ref: "v1.2.3", wantVersion: "planpr 1.2.3", wantLog: "cached in"},
		{name: "major ref", ref: "v1", wantVersion: "planpr 1.2.3"},
		{name: "version input", ref: "main", version: "1.2.3", wantVersion: "planpr 1.2.3"},
		{name: "tampered archive", ref: "v1.2.3", tamper: true, wantErr: "checksum mismatch for planpr_1.2.3_"},
		{name: "missing release", ref: "v9.9.9", wantErr: "no release v9.9.9 of planpr/planpr"},
		{name: "no release yet", ref: "v7", wantErr: "no release of planpr/planpr matches v7 yet"},
		{name: "unknown platform", ref: "v1.2.3", arch: "ARM", wantErr: "unknown platform: RUNNER_ARCH=ARM"},
		{name: "branch", ref: "main", wantVersion: "planpr main-source"},
		{name: "pinned by the SHA of a release tag", ref: strings.Repeat("a", 40), wantVersion: "planpr 1.2.3"},
		{name: "pinned by an untagged commit", ref: strings.Repeat("b", 40), wantVersion: "planpr " + strings.Repeat("b", 40) + "-source"},
		{name: "A9 poisoned tool cache", ref: "v1.2.3", poison: true, wantVersion: "planpr 1.2.3", wantLog: "installed in"},
		{name: "A9 release not from the release workflow", ref: "v1.2.3", unattested: true, wantErr: "is not proven to come from planpr/planpr's release workflow"},
		{name: "A9 provenance off", ref: "v1.2.3", unattested: true, provenance: "false", wantVersion: "planpr 1.2.3", wantLog: "provenance is off"},
		{name: "pinned by a SHA the release was not built from", ref: strings.Repeat("a", 40), builtFrom: strings.Repeat("d", 40),
			wantErr: "is not proven to come from planpr/planpr's release workflow at refs/tags/v1.2.3 --source-digest " + strings.Repeat("a", 40)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			attest(cmp.Or(tc.builtFrom, strings.Repeat("a", 40)))
			api := githubtest.New()
			defer api.Close()
			api.AddPR(githubtest.PR{Number: 2, BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e", HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821"})
			rel := newRelease(t, api)
			name := rel.publish("1.2.3", good)
			if tc.tamper { // the sums stay the good archive's
				rel.files["/planpr/planpr/releases/download/v1.2.3/"+name] = append(bytes.Clone(good[:len(good)-8]), "tampered"...)
			}
			if tc.unattested { // a release published by someone else: its sums match, no attestation does
				other := buildArchiveFrom(t, good, "NOTICE")
				name = rel.publish("1.2.3", other)
			}
			rel.releases = `[
 {"tag_name": "v1.4.0", "draft": true, "prerelease": false, "author": {"login": "x"}},
 {"tag_name": "v1.3.0-rc.1", "draft": false, "prerelease": true},
 {"tag_name": "v10.0.0", "draft": false, "prerelease": false},
 {"tag_name": "v1.2.3", "draft": false, "prerelease": false, "assets": [{"name": "SHA256SUMS", "uploader": {"login": "y"}}]},
 {"tag_name": "v1.1.0", "draft": false, "prerelease": false}]`

			work := t.TempDir()
			ws := filepath.Join(work, "ws")
			os.MkdirAll(filepath.Join(ws, "envs", "prod"), 0o755)
			copyFile(t, filepath.Join(root, "testdata", "example", "plan.json"), filepath.Join(ws, "envs", "prod", "plan.json"))
			copyFile(t, filepath.Join(root, "testdata", "payloads", "pull_request-opened.json"), filepath.Join(work, "event.json"))
			cache := toolCache
			if tc.tamper || tc.unattested || tc.poison || tc.name == "missing release" || tc.name == "unknown platform" {
				cache = t.TempDir() // never one a good run filled
			}
			if tc.poison {
				// What an earlier version of the installer trusted: a binary
				// and the archive's sum in a file beside it; and an archive
				// that is not the release's.
				dir := filepath.Join(cache, "planpr", "1.2.3", runtime.GOOS+"_"+runtime.GOARCH)
				os.MkdirAll(dir, 0o755)
				os.WriteFile(filepath.Join(dir, "planpr"), []byte("#!/bin/sh\necho planpr evil\n"), 0o755)
				os.WriteFile(filepath.Join(dir, ".archive-sha256"), fmt.Appendf(nil, "%x\n", goodSum), 0o644)
				os.WriteFile(filepath.Join(dir, name), []byte("not the release's archive"), 0o644)
			}
			r := &runner{t: t, dir: work, outputs: map[string]map[string]string{}, path: []string{gh},
				github: map[string]string{"action_ref": tc.ref, "action_repository": "planpr/planpr", "action_path": root, "token": "t-write"},
				inputs: map[string]string{},
				env: map[string]string{
					"HOME": os.Getenv("HOME"), "GOPATH": os.Getenv("GOPATH"), "GOCACHE": goEnv(t, "GOCACHE"), "GOMODCACHE": goEnv(t, "GOMODCACHE"),
					"GOFLAGS": "-mod=mod", "GOTOOLCHAIN": "local", "TMPDIR": os.TempDir(),
					"RUNNER_OS": runnerOS(), "RUNNER_ARCH": cmp.Or(tc.arch, runnerArch()), "RUNNER_TEMP": t.TempDir(), "RUNNER_TOOL_CACHE": cache,
					"GITHUB_ACTION_PATH": root, "GITHUB_WORKSPACE": ws, "GITHUB_SERVER_URL": rel.URL, "GITHUB_API_URL": rel.URL + "/api",
					"GITHUB_REPOSITORY": "Codertocat/Hello-World", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": filepath.Join(work, "event.json"),
					"GITHUB_RUN_ID": "100", "GITHUB_STEP_SUMMARY": filepath.Join(work, "summary.md"),
				}}
			for name, in := range a.Inputs {
				r.inputs[name] = in.Default
			}
			r.inputs["github-token"], r.inputs["plan"], r.inputs["key"], r.inputs["lock-files"], r.inputs["version"] = "t-write", "envs/*/plan.json", "prod", "off", tc.version
			if tc.provenance != "" {
				r.inputs["provenance"] = tc.provenance
			}

			start := time.Now()
			failed, err := r.run(&a)
			took := time.Since(start)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(r.log.String(), tc.wantErr) {
					t.Fatalf("want a failed step saying %q; failed step %d (%v), output:\n%s", tc.wantErr, failed, err, r.log.String())
				}
				if a.Runs.Steps[failed].ID == "run" || len(api.Comments(2)) > 0 {
					t.Errorf("planpr ran after a failed install:\n%s", r.log.String())
				}
				return
			}
			if err != nil {
				t.Fatalf("step %d failed: %v\n%s", failed, err, r.log.String())
			}
			if comments := api.Comments(2); len(comments) != 1 || !strings.Contains(comments[0].Body, "2 to add, 2 to change, 2 to destroy") {
				t.Errorf("comments %+v\n%s", comments, r.log.String())
			}
			// The workflow's own token (the input is github.token): its
			// comments are github-actions[bot]'s, without asking GitHub.
			if n := api.CountRequests("GET /user"); n != 0 {
				t.Errorf("GET /user %d times for the workflow's own token", n)
			}
			// The action's outputs are the run step's.
			for name, o := range a.Outputs {
				if got := r.expand(o.Value); name == "destroy" && got != "2" || name == "comment-id" && got == "" {
					t.Errorf("output %s = %q", name, got)
				}
			}
			if !strings.Contains(r.log.String(), tc.wantLog) {
				t.Errorf("want %q in the steps' output:\n%s", tc.wantLog, r.log.String())
			}
			out, err := exec.Command(filepath.Join(r.path[0], "planpr"), "--version").Output()
			if err != nil || strings.TrimSpace(string(out)) != tc.wantVersion {
				t.Errorf("installed %q (%v), want %q", out, err, tc.wantVersion)
			}
			t.Logf("%s: steps took %v (%s); used %v", tc.name, took.Round(time.Millisecond), strings.Join(r.took, ", "), r.used)
		})
	}
}

// fakeGH is a directory holding a gh that answers `gh attestation verify
// FILE --repo planpr/planpr --signer-workflow
// planpr/planpr/.github/workflows/release.yml [--source-ref REF]
// [--source-digest SHA]` as GitHub would: yes for a file whose SHA-256
// begins a line of the attested file it returns (the attestations the
// release workflow made: "SUM COMMIT REF"), when the commit and tag the
// flags ask for are the line's; no otherwise.
func fakeGH(t *testing.T) (dir, attested string) {
	dir = t.TempDir()
	attested = filepath.Join(dir, "attested")
	script := `#!/usr/bin/env bash
[ "$1 $2" = "attestation verify" ] || { echo "fake gh: unexpected $*" >&2; exit 2; }
file=$3; shift 3
[ "$1 $2 $3 $4" = "--repo planpr/planpr --signer-workflow planpr/planpr/.github/workflows/release.yml" ] || { echo "fake gh: unexpected flags $*" >&2; exit 2; }
shift 4
want_ref=""; want_digest=""
while [ $# -gt 0 ]; do
  case $1 in
    --source-ref) want_ref=$2; shift 2 ;;
    --source-digest) want_digest=$2; shift 2 ;;
    *) echo "fake gh: unexpected flag $1" >&2; exit 2 ;;
  esac
done
[ -n "$GH_TOKEN" ] || { echo "fake gh: no GH_TOKEN" >&2; exit 4; }
sum=$(sha256sum "$file" | cut -d' ' -f1)
while read -r s commit ref; do
  [ "$s" = "$sum" ] || continue
  if [ -n "$want_ref" ] && [ "$ref" != "$want_ref" ]; then echo "Error: verifying with issuer: expected SourceRepositoryRef $want_ref, got $ref" >&2; exit 1; fi
  if [ -n "$want_digest" ] && [ "$commit" != "$want_digest" ]; then echo "Error: expected SourceRepositoryDigest $want_digest, got $commit" >&2; exit 1; fi
  echo "Loaded 1 attestation"; exit 0
done < "` + attested + `"
echo "Error: no attestations found for subject" >&2; exit 1
`
	if err := os.WriteFile(filepath.Join(dir, "gh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, attested
}

// buildArchiveFrom is archive with one more file: the same planpr, in an
// archive of another checksum.
func buildArchiveFrom(t *testing.T, archive []byte, extra string) []byte {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		body, _ := io.ReadAll(tr)
		tw.WriteHeader(h)
		tw.Write(body)
	}
	tw.WriteHeader(&tar.Header{Name: extra, Mode: 0o644, Size: 1, ModTime: time.Unix(0, 0)})
	tw.Write([]byte("x"))
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func goEnv(t *testing.T, name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func copyFile(t *testing.T, from, to string) {
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
