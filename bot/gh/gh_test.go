package gh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/planpr/planpr/bot/githubtest"
)

func TestListCommentsFollowsPagination(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	for i := 0; i < 250; i++ {
		fake.AddComment(7, "someone", fmt.Sprintf("comment %d", i))
	}
	got, err := c.ListComments(t.Context(), repo, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 250 || got[249].Body != "comment 249" {
		t.Errorf("got %d comments", len(got))
	}
	if pages := fake.CountRequests("GET /repos/octo/infra/issues/7/comments"); pages != 3 {
		t.Errorf("%d requests for 250 comments at 100 a page", pages)
	}
}

func TestBodiesOverTheLimitAreNeverSent(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	_, err := c.CreateComment(t.Context(), repo, 1, strings.Repeat("é", 65537))
	if !errors.Is(err, ErrTooLong) {
		t.Errorf("err = %v", err)
	}
	if len(fake.Log()) != 0 {
		t.Errorf("a request was sent: %v", fake.Log())
	}
	if _, err := c.CreateComment(t.Context(), repo, 1, strings.Repeat("é", 65536)); err != nil {
		t.Errorf("65,536 characters must be accepted: %v", err)
	}
}

func TestFakeRejectsLongBodies(t *testing.T) {
	// The fake itself answers 422, like GitHub, for a client that does not check.
	fake, c, _ := newFake(t, "t-write")
	cm, _ := c.CreateComment(t.Context(), repo, 1, "short")
	c.gh.Issues.EditComment(t.Context(), "octo", "infra", cm.ID, nil)
	_, err := c.EditComment(t.Context(), repo, cm.ID, "x")
	if err != nil {
		t.Fatal(err)
	}
	resp := fake.Log()
	if !strings.HasSuffix(resp[len(resp)-1], "200") {
		t.Errorf("log %v", resp)
	}
}

func TestAuthAndReadOnlyTokens(t *testing.T) {
	_, anon, _ := newFake(t, "")
	if _, err := anon.ListComments(t.Context(), repo, 1); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("without a token: %v", err)
	}
	_, ro, _ := newFake(t, "t-read")
	if _, err := ro.CreateComment(t.Context(), repo, 1, "hi"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("read-only token: %v", err)
	}
}

func TestRetriesHonourRetryAfter(t *testing.T) {
	fake, c, slept := newFake(t, "t-write")
	fake.Inject(
		githubtest.Fault{Match: "POST", Status: 403, RetryAfter: "3", Message: "You have exceeded a secondary rate limit"},
		githubtest.Fault{Match: "POST", Status: 429, RetryAfter: "2"},
		githubtest.Fault{Match: "POST", Status: 502},
	)
	if _, err := c.CreateComment(t.Context(), repo, 1, "hi"); err != nil {
		t.Fatal(err)
	}
	if slept.Load() < 5 {
		t.Errorf("slept %ds, want at least the 3+2 of Retry-After", slept.Load())
	}
	if n := len(fake.Comments(1)); n != 1 {
		t.Errorf("%d comments after retries", n)
	}
}

func TestPlain403IsNotRetried(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	fake.Inject(githubtest.Fault{Match: "POST", Status: 403, Message: "Must have admin rights"})
	if _, err := c.CreateComment(t.Context(), repo, 1, "hi"); err == nil {
		t.Fatal("want an error")
	}
	if len(fake.Log()) != 1 {
		t.Errorf("retried a plain 403: %v", fake.Log())
	}
}

func TestRetriesGiveUp(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	for i := 0; i < 10; i++ {
		fake.Inject(githubtest.Fault{Match: "GET", Status: 503})
	}
	if _, err := c.ListComments(t.Context(), repo, 1); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("err = %v", err)
	}
	if n := len(fake.Log()); n != 5 {
		t.Errorf("%d attempts, want 5", n)
	}
}

func TestGHESPaths(t *testing.T) {
	fake := githubtest.New()
	defer fake.Close()
	c, err := NewClient(nil, fake.GHESURL(), "", "t-write")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateComment(t.Context(), repo, 3, "hi"); err != nil {
		t.Fatal(err)
	}
	if c.graphqlURL != fake.URL+"/api/graphql" {
		t.Errorf("GraphQL URL %s", c.graphqlURL)
	}
	if err := c.MinimizeComment(t.Context(), fmt.Sprintf("IC_%d", fake.Comments(3)[0].ID)); err != nil {
		t.Fatal(err)
	}
	if !fake.Comments(3)[0].Minimized {
		t.Error("not minimized")
	}
}

func TestFileAtUsesBlobsForLargeFiles(t *testing.T) {
	fake, c, _ := newFake(t, "t-write")
	big := []byte(strings.Repeat("# lock\n", 200000))
	fake.AddFile("abc", "envs/prod/.terraform.lock.hcl", big)
	fake.AddFile("abc", "small.hcl", []byte("x"))
	got, found, err := c.FileAt(t.Context(), repo, "envs/prod/.terraform.lock.hcl", "abc")
	if err != nil || !found || len(got) != len(big) {
		t.Errorf("big: %d bytes, %v, %v", len(got), found, err)
	}
	got, found, err = c.FileAt(t.Context(), repo, "small.hcl", "abc")
	if err != nil || !found || string(got) != "x" {
		t.Errorf("small: %q %v %v", got, found, err)
	}
	if _, found, err := c.FileAt(t.Context(), repo, "missing.hcl", "abc"); found || err != nil {
		t.Errorf("missing: %v %v", found, err)
	}
}

func TestRetryAfterRateLimitReset(t *testing.T) {
	h := http.Header{}
	h.Set("X-Ratelimit-Remaining", "0")
	h.Set("X-Ratelimit-Reset", strconv.FormatInt(time.Now().Add(30*time.Second).Unix(), 10))
	d, retry := retryAfter(&http.Response{StatusCode: 403, Header: h}, nil, time.Second)
	if !retry || d < 25*time.Second || d > 31*time.Second {
		t.Errorf("403 with x-ratelimit-reset: wait %v, retry %v", d, retry)
	}
	h429 := http.Header{}
	h429.Set("Retry-After", "7")
	if d, retry := retryAfter(&http.Response{StatusCode: 429, Header: h429}, nil, time.Second); !retry || d != 7*time.Second {
		t.Errorf("429 Retry-After: %v %v", d, retry)
	}
	if _, retry := retryAfter(&http.Response{StatusCode: 404, Header: http.Header{}}, nil, time.Second); retry {
		t.Error("404 retried")
	}
}

var repo = Repo{Owner: "octo", Name: "infra"}

// newFake starts a fake GitHub and a client for it whose retries do not
// really sleep; slept counts the waits.
func newFake(t *testing.T, token string) (*githubtest.Server, *Client, *atomic.Int64) {
	t.Helper()
	fake := githubtest.New()
	t.Cleanup(fake.Close)
	var slept atomic.Int64
	rt := &RetryTransport{Sleep: func(d time.Duration) { slept.Add(int64(d / time.Second)) }}
	c, err := NewClient(&http.Client{Transport: rt}, fake.APIURL(), fake.URL+"/graphql", token)
	if err != nil {
		t.Fatal(err)
	}
	return fake, c, &slept
}

// TestRetryWaitEndsWithTheContext: a Retry-After of a minute does not hold
// a request whose context ends sooner.
func TestRetryWaitEndsWithTheContext(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	done := make(chan error, 1)
	go func() {
		_, err := (&http.Client{Transport: &RetryTransport{}}).Do(req)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want the context's deadline", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the retry wait outlived its context")
	}
}

func TestAnswerLost(t *testing.T) {
	for _, tc := range []struct {
		err  error
		lost bool
	}{
		{nil, false},
		{fmt.Errorf("creating the comment: %w", io.ErrUnexpectedEOF), true},
		{&url.Error{Op: "Post", URL: "https://api.github.com/x", Err: errors.New("read: connection reset by peer")}, true},
		{&StatusError{What: "creating the comment", Status: 502}, false},
		{&url.Error{Op: "Post", URL: "https://api.github.com/x", Err: context.Canceled}, false},
		{fmt.Errorf("creating the comment: %w", ErrReadOnly), false},
	} {
		if got := AnswerLost(tc.err); got != tc.lost {
			t.Errorf("AnswerLost(%v) = %v", tc.err, got)
		}
	}
}
