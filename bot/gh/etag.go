package gh

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
)

// ETagTransport asks GitHub for what it read before with If-None-Match:
// an unchanged answer is a 304, which GitHub does not count against the
// rate limit, and is served from what was kept. It is for a client that
// lives across runs (the App's, one per installation); a run of the
// Action reads each list once and gains nothing.
//
// Only GETs are kept, whole answers of at most maxETagBody bytes, at most
// maxETagEntries of them (all are dropped when full: a cache, not a
// record).
type ETagTransport struct {
	Base http.RoundTripper

	mu   sync.Mutex
	kept map[string]*etagged
}

type etagged struct {
	etag   string
	header http.Header
	body   []byte
}

const (
	maxETagBody    = 1 << 20
	maxETagEntries = 1024
)

func (t *ETagTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	if req.Method != http.MethodGet || req.Header.Get("If-None-Match") != "" {
		return base.RoundTrip(req)
	}
	// The token is part of the key: what one identity read is not
	// served to another.
	key := req.Header.Get("Authorization") + " " + req.URL.String()
	t.mu.Lock()
	kept := t.kept[key]
	t.mu.Unlock()
	if kept != nil {
		req = req.Clone(req.Context())
		req.Header.Set("If-None-Match", kept.etag)
	}
	resp, err := base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusNotModified && kept != nil:
		resp.Body.Close()
		header := kept.header.Clone()
		for k, v := range resp.Header { // the rate limit's figures are the new answer's
			if strings.HasPrefix(strings.ToLower(k), "x-ratelimit") {
				header[k] = v
			}
		}
		return &http.Response{Status: "200 OK", StatusCode: http.StatusOK, Proto: resp.Proto, ProtoMajor: resp.ProtoMajor, ProtoMinor: resp.ProtoMinor,
			Header: header, Body: io.NopCloser(bytes.NewReader(kept.body)), ContentLength: int64(len(kept.body)), Request: resp.Request}, nil
	case resp.StatusCode == http.StatusOK && resp.Header.Get("ETag") != "" && resp.ContentLength <= maxETagBody:
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxETagBody+1))
		if err != nil {
			resp.Body.Close()
			return nil, err
		}
		if len(body) > maxETagBody { // too large to keep: passed on whole
			resp.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(body), resp.Body), resp.Body}
			break
		}
		resp.Body.Close()
		t.mu.Lock()
		if t.kept == nil || len(t.kept) >= maxETagEntries {
			t.kept = map[string]*etagged{}
		}
		t.kept[key] = &etagged{etag: resp.Header.Get("ETag"), header: resp.Header.Clone(), body: body}
		t.mu.Unlock()
		resp.Body = io.NopCloser(bytes.NewReader(body))
	}
	return resp, nil
}
