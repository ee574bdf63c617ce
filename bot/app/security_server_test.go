package app

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/planpr/planpr/bot"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/githubtest"
)

// TestConfigFetchesBounded: a pull request whose root module holds 1,000
// .tf files made 1,007 API requests per delivery: the App now fetches at
// most bot.MaxConfigFiles of them, the likely ones first.
func TestConfigFetchesBounded(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	a.addLockPR(2, "head1")
	for i := range 1000 {
		a.fake.AddFile("head1", fmt.Sprintf("envs/prod/r%04d.tf", i), []byte("resource \"aws_s3_bucket\" \"b\" {}\n"))
	}
	body := payload(t, "pull_request-opened.json", setPR(2, "head1", "2026-11-01T10:00:00Z"))
	a.deliver(t, "pull_request", "d-1", body, githubtest.Sign(testSecret, body))
	a.stop(t)
	if n, c := countKey(a.fake, 2, LockKey); n != 1 || !strings.Contains(c.Body, "envs/prod/main.tf:3") {
		t.Fatalf("%d lock comments; main.tf (a likely file) was not read: %.300q", n, c.Body)
	}
	if n := a.fake.CountRequests("GET /repos/Codertocat/Hello-World/contents/"); n > bot.MaxConfigFiles+4 {
		t.Errorf("%d contents requests for one delivery", n)
	}
}

// TestLargeFilesAreNotFetched: blob fetches had no size limit; a lock
// file over gh.MaxFileFetch is refused from its size, unread.
func TestLargeFilesAreNotFetched(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	fake.AddFile("abc", "big/.terraform.lock.hcl", bytes.Repeat([]byte("# padding\n"), gh.MaxFileFetch/10+1))
	_, _, err := c.FileAt(t.Context(), repo, "big/.terraform.lock.hcl", "abc")
	if !errors.Is(err, gh.ErrFileTooLarge) {
		t.Errorf("err = %v", err)
	}
	if n := fake.CountRequests("GET /repos/octo/infra/git/blobs/"); n != 0 {
		t.Errorf("%d blob fetches", n)
	}
}

// TestLockFilesPerPullRequestCapped: 100 lock files with 20 .tf files
// each made 2,308 API calls in one delivery (111 s). A review now reads
// bot.MaxLockFiles lock files and bot.MaxConfigFilesPerReview configuration files,
// and names the rest in the comment as not reviewed.
func TestLockFilesPerPullRequestCapped(t *testing.T) {
	a := newTestApp(t, 1)
	a.start(t)
	var files []githubtest.File
	for i := range 100 {
		dir := fmt.Sprintf("envs/e%03d", i)
		files = append(files, githubtest.File{Name: dir + "/.terraform.lock.hcl", Status: "modified"})
		a.fake.AddFile(baseSHA, dir+"/.terraform.lock.hcl", []byte(lockBefore))
		a.fake.AddFile("head1", dir+"/.terraform.lock.hcl", []byte(lockAfter))
		for j := range 20 {
			a.fake.AddFile("head1", fmt.Sprintf("%s/r%02d.tf", dir, j), []byte("resource \"aws_s3_bucket\" \"b\" {}\n"))
		}
	}
	a.fake.AddPR(githubtest.PR{Number: 2, BaseSHA: baseSHA, HeadSHA: "head1", HeadRef: "b", HeadOwner: "Codertocat", Files: files})
	body := payload(t, "pull_request-opened.json", setPR(2, "head1", "2026-11-01T10:00:00Z"))
	a.deliver(t, "pull_request", "d-1", body, githubtest.Sign(testSecret, body))
	a.stop(t)
	n, c := countKey(a.fake, 2, LockKey)
	if n != 1 {
		t.Fatalf("%d lock comments", n)
	}
	if got := strings.Count(c.Body, "not reviewed"); got < 80 {
		t.Errorf("%d lock files said not reviewed, want 80:\n%.2000s", got, c.Body)
	}
	if !strings.Contains(c.Body, "envs/e099/.terraform.lock.hcl") || !strings.Contains(c.Body, "not read:") {
		t.Errorf("the skipped lock files and configuration files are not named:\n%.3000s", c.Body)
	}
	// 20 lock files at base and head, their directories listed, at most
	// 100 configuration files, and the pull request's own calls.
	calls := a.fake.CountRequests("GET /repos/")
	if calls > 2*bot.MaxLockFiles+bot.MaxLockFiles+bot.MaxConfigFilesPerReview+20 {
		t.Errorf("%d API calls for one delivery", calls)
	}
	t.Logf("%d API calls for a pull request of 100 lock files with 20 .tf files each", calls)
}
