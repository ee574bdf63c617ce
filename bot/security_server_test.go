package bot

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/githubtest"
)

// TestM7ConfigFetchesBounded: a pull request whose root module holds 1,000
// .tf files made 1,007 API requests per delivery: the App now fetches at
// most maxConfigFiles of them, the likely ones first.
func TestM7ConfigFetchesBounded(t *testing.T) {
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
	if n := a.fake.CountRequests("GET /repos/Codertocat/Hello-World/contents/"); n > maxConfigFiles+4 {
		t.Errorf("%d contents requests for one delivery", n)
	}
}

// TestM7LargeFilesAreNotFetched: blob fetches had no size limit; a lock
// file over gh.MaxFileFetch is refused from its size, unread.
func TestM7LargeFilesAreNotFetched(t *testing.T) {
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
