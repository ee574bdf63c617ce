package gh

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// RetryTransport retries what GitHub asks to be retried — 5xx, 429, and 403
// secondary rate limits — honouring Retry-After and x-ratelimit-reset, with
// exponential backoff otherwise, within a bounded total time.
type RetryTransport struct {
	Base     http.RoundTripper
	Attempts int           // total tries, default 5
	Budget   time.Duration // total time spent waiting, default 2 minutes
	MaxWait  time.Duration // longest single wait, default 60s
	Sleep    func(time.Duration)
	// Calls and Errors count requests sent and failures seen, for metrics.
	Calls, Errors atomic.Int64
}

func (t *RetryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	attempts := t.Attempts
	if attempts <= 0 {
		attempts = 5
	}
	budget := t.Budget
	if budget <= 0 {
		budget = 2 * time.Minute
	}
	maxWait := t.MaxWait
	if maxWait <= 0 {
		maxWait = time.Minute
	}
	// The wait ends with the request's context: a job whose time is up
	// does not sleep on for a minute.
	sleep := func(d time.Duration) error {
		if t.Sleep != nil {
			t.Sleep(d)
			return req.Context().Err()
		}
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-timer.C:
			return nil
		case <-req.Context().Done():
			return req.Context().Err()
		}
	}
	var body []byte
	if req.Body != nil && req.GetBody == nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		body = b
	}
	waited := time.Duration(0)
	backoff := 500 * time.Millisecond
	for i := 1; ; i++ {
		r := req
		if i > 1 {
			r = req.Clone(req.Context())
		}
		switch {
		case body != nil:
			r.Body = io.NopCloser(bytes.NewReader(body))
		case req.GetBody != nil && i > 1:
			b, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			r.Body = b
		}
		t.Calls.Add(1)
		resp, err := base.RoundTrip(r)
		if err != nil {
			t.Errors.Add(1)
		} else if resp.StatusCode >= 400 {
			t.Errors.Add(1)
		}
		wait, retry := retryAfter(resp, err, backoff)
		if !retry || i >= attempts || waited+wait > budget || req.Context().Err() != nil {
			return resp, err
		}
		wait = min(wait, maxWait)
		if resp != nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		if err := sleep(wait); err != nil {
			return nil, err
		}
		waited += wait
		backoff *= 2
	}
}

// retryAfter decides whether a response is worth retrying and after how long.
func retryAfter(resp *http.Response, err error, backoff time.Duration) (time.Duration, bool) {
	if err != nil {
		return backoff, true // connection reset, timeout
	}
	h := resp.Header
	fromHeaders := func() (time.Duration, bool) {
		if s := h.Get("Retry-After"); s != "" {
			if n, err := strconv.Atoi(s); err == nil {
				return time.Duration(n) * time.Second, true
			}
			if t, err := http.ParseTime(s); err == nil {
				return max(time.Until(t), 0), true
			}
		}
		if h.Get("X-Ratelimit-Remaining") == "0" {
			if n, err := strconv.ParseInt(h.Get("X-Ratelimit-Reset"), 10, 64); err == nil {
				return max(time.Until(time.Unix(n, 0)), time.Second), true
			}
		}
		return 0, false
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		if d, ok := fromHeaders(); ok {
			return d, true
		}
		return backoff, true
	case resp.StatusCode == http.StatusForbidden:
		// Only rate limits: a plain 403 (no permission) is final.
		if d, ok := fromHeaders(); ok {
			return d, true
		}
		return 0, false
	case resp.StatusCode >= 500:
		if d, ok := fromHeaders(); ok {
			return d, true
		}
		return backoff, true
	}
	return 0, false
}
