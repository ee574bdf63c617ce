// Package githubtest is a fake GitHub API over HTTP for tests: comments,
// pull requests and their files, contents and blobs, labels, GraphQL
// minimizeComment, workflow-run artifacts, check runs, label events,
// collaborators' permissions, App installation tokens and the App manifest
// flow's code conversion. It
// behaves like GitHub where planpr depends on it: pagination with Link
// headers, 422 for comment bodies over 65,536 characters, 401 without a
// token, 403 for read-only tokens, and injectable faults (5xx, 429 and
// secondary rate limits with Retry-After, answers cut mid-way).
package githubtest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Server is the fake. Configure it before use; its methods are safe for
// concurrent use.
type Server struct {
	*httptest.Server

	mu       sync.Mutex
	tokens   map[string]string // token -> "write" or "read"
	users    map[string]string // token -> the login it acts as
	appSlug  string
	comments map[int][]*Comment
	// issues are the repository's issues (see issues.go), by number.
	issues     map[int]*Issue
	issueOrder []int
	nextID     int64
	clock      time.Time
	labels     map[int][]string
	prs        map[int]*PR
	files      map[string]map[string][]byte // ref -> path -> content
	faults     []Fault
	failEvery  int
	requests   int
	log        []string
	artifacts  map[int64][]Artifact
	installs   map[int64]bool
	appID      int64
	minimized  map[string]bool
	// manifestCodes are the App manifest flow's codes not yet redeemed.
	manifestCodes map[string]ManifestApp
	// hookDeliveries are the App's recent deliveries; redeliveries counts
	// the redeliveries asked of each.
	hookDeliveries []HookDelivery
	redeliveries   map[int64]int
	// hold, while set, keeps every request waiting (see Hold).
	hold chan struct{}
	// Check runs, label events and users' access (see checks.go).
	checkRuns   []*CheckRun
	runs        []Run
	labelEvents map[int][]LabelEvent
	permissions map[string]string
}

// Comment is a stored comment.
type Comment struct {
	ID        int64
	Body      string
	User      string
	CreatedAt time.Time
	Minimized bool
}

// PR is a stored pull request.
type PR struct {
	Number                    int
	BaseSHA, HeadSHA, HeadRef string
	HeadOwner                 string
	HeadRepo                  string // OWNER/NAME; the base repository when empty
	Files                     []File
	MergeBaseSHA              string // where head branched off; BaseSHA when empty
	MergeCommitSHA            string // the commit its merge made on the base branch; "" while open
	Closed                    bool   // closed without a merge
}

// File is a changed file of a pull request.
type File struct {
	Name, Status, PreviousName string
}

// Artifact is a workflow run's artifact: a zip served at its download URL.
type Artifact struct {
	ID   int64
	Name string
	Zip  []byte
}

// Fault is a response to give instead of the real one, to the next request
// whose "METHOD path" starts with Match ("" matches any).
type Fault struct {
	Match      string
	Status     int
	RetryAfter string // seconds
	Message    string
	// Cut does the request and cuts its answer after the headers, as a
	// dropped connection does: the client cannot know whether it was
	// done. With Status too, the request is not done and the cut answer
	// has that status.
	Cut bool
}

// New starts a fake GitHub. Token "t-write" may write, "t-read" only read,
// "t-nochecks" write all but check runs (a workflow without checks: write).
func New() *Server {
	s := &Server{
		tokens:      map[string]string{"t-write": "write", "t-read": "read", "t-nochecks": "write-no-checks"},
		users:       map[string]string{},
		appSlug:     "planpr-test",
		comments:    map[int][]*Comment{},
		labels:      map[int][]string{},
		prs:         map[int]*PR{},
		files:       map[string]map[string][]byte{},
		artifacts:   map[int64][]Artifact{},
		installs:    map[int64]bool{},
		minimized:   map[string]bool{},
		nextID:      1000,
		labelEvents: map[int][]LabelEvent{},
		permissions: map[string]string{},
		clock:       time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC),
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Hold keeps every request waiting until the returned release is called;
// a request whose client goes away meanwhile is dropped, as if it never
// reached GitHub.
func (s *Server) Hold() (release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan struct{})
	s.hold = ch
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			s.hold = nil
			s.mu.Unlock()
			close(ch)
		})
	}
}

// AddToken allows another token ("write" or "read").
func (s *Server) AddToken(token, access string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = access
}

// AddUserToken allows a personal access token acting as login: GET /user
// answers it, and its comments are written as login. (Workflow tokens and
// installation tokens get 403 from GET /user, as on GitHub.)
func (s *Server) AddUserToken(token, login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = "write"
	s.users[token] = login
}

// AppSlug is the App's slug: installation tokens comment as SLUG[bot].
func (s *Server) AppSlug() string { return s.appSlug }

// AddPR stores a pull request.
func (s *Server) AddPR(pr PR) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := pr
	s.prs[pr.Number] = &p
}

// SetMergeBase says where a pull request's head branched off its base, as
// the compare API will answer.
func (s *Server) SetMergeBase(pr int, sha string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.prs[pr]; p != nil {
		p.MergeBaseSHA = sha
	}
}

// AddFile stores a file's content at a ref (a commit SHA).
func (s *Server) AddFile(ref, path string, content []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files[ref] == nil {
		s.files[ref] = map[string][]byte{}
	}
	s.files[ref][path] = content
}

// AddArtifact stores an artifact of a workflow run.
func (s *Server) AddArtifact(runID int64, a Artifact) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.artifacts[runID] = append(s.artifacts[runID], a)
}

// AddInstallation allows an App's installation to get tokens: the App's
// JWT must name appID as its issuer.
func (s *Server) AddInstallation(appID, id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.installs[id] = true
	s.appID = appID
}

// AddComment stores a comment as if someone had posted it.
func (s *Server) AddComment(pr int, user, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addComment(pr, user, body).ID
}

// Inject queues faults for the next matching requests.
func (s *Server) Inject(f ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, f...)
}

// FailEvery makes every nth request answer 502.
func (s *Server) FailEvery(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failEvery = n
}

// Comments returns a pull request's comments, oldest first.
func (s *Server) Comments(pr int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.comments[pr] {
		out = append(out, *c)
	}
	return out
}

// Labels returns a pull request's labels.
func (s *Server) Labels(pr int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.labels[pr]...)
}

// Log returns the requests served, as "METHOD path status".
func (s *Server) Log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

// APIURL is the REST base URL; GHESURL the same under /api/v3.
func (s *Server) APIURL() string  { return s.URL }
func (s *Server) GHESURL() string { return s.URL + "/api/v3" }

func (s *Server) addComment(pr int, user, body string) *Comment {
	s.nextID++
	s.clock = s.clock.Add(time.Second)
	c := &Comment{ID: s.nextID, Body: body, User: user, CreatedAt: s.clock}
	s.comments[pr] = append(s.comments[pr], c)
	return c
}

type status struct {
	code int
	body any
	hdr  map[string]string
	cut  bool // the answer stops after its headers (see Fault.Cut)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	hold := s.hold
	s.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-r.Context().Done(): // the client is gone (killed): nothing happens
			return
		}
	}
	path := strings.TrimPrefix(r.URL.Path, "/api/v3")
	if strings.HasPrefix(r.URL.Path, "/api/graphql") {
		path = "/graphql"
	}
	s.mu.Lock()
	st := s.route(r, path)
	// As GitHub does, a GET's answer carries an ETag, and a request whose
	// If-None-Match is that ETag gets 304 and no body.
	if r.Method == http.MethodGet && st.code == http.StatusOK && !st.cut {
		if etag := etagOf(st.body); etag != "" {
			if st.hdr == nil {
				st.hdr = map[string]string{}
			}
			st.hdr["ETag"] = etag
			if r.Header.Get("If-None-Match") == etag {
				st = status{code: http.StatusNotModified, body: []byte{}, hdr: map[string]string{"ETag": etag}}
			}
		}
	}
	s.log = append(s.log, fmt.Sprintf("%s %s %d", r.Method, path, st.code))
	s.mu.Unlock()
	for k, v := range st.hdr {
		w.Header().Set(k, v)
	}
	if st.cut {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Content-Length", "4096")
		w.WriteHeader(st.code)
		w.Write([]byte(`{"id":`))
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the connection is closed, the answer half sent
	}
	if raw, ok := st.body.([]byte); ok {
		w.WriteHeader(st.code)
		w.Write(raw)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(st.code)
	if st.body != nil {
		json.NewEncoder(w).Encode(st.body)
	}
}

// etagOf is a strong ETag of an answer's body, as it is encoded.
func etagOf(body any) string {
	raw, ok := body.([]byte)
	if !ok {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return ""
		}
	}
	sum := sha256.Sum256(raw)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

func msg(code int, m string) status { return status{code: code, body: map[string]string{"message": m}} }

// route answers one request; s.mu is held.
func (s *Server) route(r *http.Request, path string) status {
	s.requests++
	call := r.Method + " " + path
	for i, f := range s.faults {
		if strings.HasPrefix(call, f.Match) {
			s.faults = append(s.faults[:i], s.faults[i+1:]...)
			if f.Cut && f.Status == 0 {
				st := s.answer(r, path)
				st.cut = true
				return st
			}
			st := msg(f.Status, f.Message)
			if st.body.(map[string]string)["message"] == "" {
				st = msg(f.Status, http.StatusText(f.Status))
			}
			if f.RetryAfter != "" {
				st.hdr = map[string]string{"Retry-After": f.RetryAfter}
			}
			st.cut = f.Cut
			return st
		}
	}
	if s.failEvery > 0 && s.requests%s.failEvery == 0 {
		return msg(http.StatusBadGateway, "Server Error")
	}
	return s.answer(r, path)
}

// answer is GitHub's answer to one request, faults aside; s.mu is held.
func (s *Server) answer(r *http.Request, path string) status {
	// Artifact downloads are fetched without a token, like GitHub's
	// pre-signed URLs.
	if strings.HasPrefix(path, "/download/") {
		return s.download(path)
	}
	if strings.HasPrefix(path, "/app/hook/deliveries") {
		return s.hookDeliveriesRoute(r, path)
	}
	if strings.HasPrefix(path, "/app-manifests/") {
		return s.convertManifest(r, path)
	}
	if path == "/app/installations" || strings.HasPrefix(path, "/app/installations/") {
		return s.installationToken(r, path)
	}
	if path == "/app" {
		if st, ok := s.checkJWT(r); !ok {
			return st
		}
		return status{code: 200, body: map[string]any{"id": s.appID, "slug": s.appSlug, "name": "planpr test"}}
	}
	access := s.auth(r)
	if access == "" {
		return msg(http.StatusUnauthorized, "Requires authentication")
	}
	if r.Method != http.MethodGet && access != "write" && access != "write-no-checks" && path != "/graphql" {
		return msg(http.StatusForbidden, "Resource not accessible by integration")
	}
	if path == "/user" {
		login := s.users[bearer(r)]
		if login == "" {
			return msg(http.StatusForbidden, "Resource not accessible by integration")
		}
		return status{code: 200, body: map[string]any{"login": login, "type": "User"}}
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if path == "/graphql" {
		return s.graphql(r, access)
	}
	if len(parts) < 4 || parts[0] != "repos" {
		return msg(http.StatusNotFound, "Not Found")
	}
	rest := parts[3:]
	switch {
	case (len(rest) == 1 || len(rest) == 2 && rest[1] != "comments") && rest[0] == "issues":
		return s.issuesRoute(r, rest, access)
	case len(rest) == 3 && rest[0] == "issues" && rest[2] == "comments":
		pr, _ := strconv.Atoi(rest[1])
		if r.Method == http.MethodPost {
			return s.createComment(r, pr, access)
		}
		return s.page(r, s.commentsJSON(pr))
	case len(rest) == 3 && rest[0] == "issues" && rest[1] == "comments":
		id, _ := strconv.ParseInt(rest[2], 10, 64)
		return s.commentByID(r, id, access)
	case len(rest) == 2 && rest[0] == "pulls":
		pr, _ := strconv.Atoi(rest[1])
		p := s.prs[pr]
		if p == nil {
			return msg(http.StatusNotFound, "Not Found")
		}
		return status{code: 200, body: prJSON(p, parts[1]+"/"+parts[2])}
	case len(rest) == 1 && rest[0] == "pulls":
		head := r.URL.Query().Get("head")
		var list []any
		for _, n := range sortedPRs(s.prs) {
			p := s.prs[n]
			if head == "" || head == p.HeadOwner+":"+p.HeadRef {
				list = append(list, prJSON(p, parts[1]+"/"+parts[2]))
			}
		}
		return s.page(r, list)
	case len(rest) == 3 && rest[0] == "pulls" && rest[2] == "files":
		pr, _ := strconv.Atoi(rest[1])
		p := s.prs[pr]
		if p == nil {
			return msg(http.StatusNotFound, "Not Found")
		}
		var list []any
		for _, f := range p.Files {
			m := map[string]any{"filename": f.Name, "status": f.Status}
			if f.PreviousName != "" {
				m["previous_filename"] = f.PreviousName
			}
			list = append(list, m)
		}
		return s.page(r, list)
	case len(rest) == 2 && rest[0] == "compare":
		base, head, ok := strings.Cut(rest[1], "...")
		if !ok {
			return msg(http.StatusNotFound, "Not Found")
		}
		mergeBase := base
		for _, p := range s.prs {
			if p.BaseSHA == base && p.HeadSHA == head && p.MergeBaseSHA != "" {
				mergeBase = p.MergeBaseSHA
			}
		}
		return status{code: 200, body: map[string]any{"status": "ahead", "merge_base_commit": map[string]any{"sha": mergeBase}, "base_commit": map[string]any{"sha": base}}}
	case len(rest) >= 2 && rest[0] == "contents":
		return s.contents(r, strings.Join(rest[1:], "/"))
	case len(rest) == 3 && rest[0] == "git" && rest[1] == "blobs":
		for _, files := range s.files {
			for _, content := range files {
				if blobSHA(content) == rest[2] {
					return status{code: 200, body: content, hdr: map[string]string{"Content-Type": "application/vnd.github.raw"}}
				}
			}
		}
		return msg(http.StatusNotFound, "Not Found")
	case len(rest) >= 1 && rest[0] == "check-runs", len(rest) == 3 && rest[0] == "commits" && rest[2] == "check-runs":
		return s.checksRoute(r, rest, access)
	case len(rest) == 3 && rest[0] == "issues" && rest[2] == "events":
		pr, _ := strconv.Atoi(rest[1])
		return s.eventsRoute(r, pr)
	case len(rest) == 3 && rest[0] == "collaborators" && rest[2] == "permission":
		return s.permissionRoute(rest[1])
	case len(rest) >= 3 && rest[0] == "issues" && rest[2] == "labels":
		pr, _ := strconv.Atoi(rest[1])
		return s.labelsRoute(r, pr, rest[3:])
	case len(rest) == 3 && rest[0] == "commits" && rest[2] == "pulls":
		var list []any
		for _, n := range sortedPRs(s.prs) {
			if p := s.prs[n]; p.MergeCommitSHA == rest[1] || p.HeadSHA == rest[1] {
				list = append(list, prJSON(p, parts[1]+"/"+parts[2]))
			}
		}
		return s.page(r, list)
	case len(rest) == 2 && rest[0] == "actions" && rest[1] == "runs":
		return s.runsRoute(r)
	case len(rest) == 4 && rest[0] == "actions" && rest[1] == "runs" && rest[3] == "artifacts":
		run, _ := strconv.ParseInt(rest[2], 10, 64)
		var list []any
		for _, a := range s.artifacts[run] {
			list = append(list, map[string]any{"id": a.ID, "name": a.Name, "size_in_bytes": len(a.Zip), "expired": false})
		}
		if list == nil {
			list = []any{}
		}
		return status{code: 200, body: map[string]any{"total_count": len(list), "artifacts": list}}
	case len(rest) == 4 && rest[0] == "actions" && rest[1] == "artifacts" && rest[3] == "zip":
		id, _ := strconv.ParseInt(rest[2], 10, 64)
		return status{code: http.StatusFound, hdr: map[string]string{"Location": s.URL + "/download/" + strconv.FormatInt(id, 10)}}
	}
	return msg(http.StatusNotFound, "Not Found")
}

func (s *Server) auth(r *http.Request) string { return s.tokens[bearer(r)] }

// bearer is the request's token.
func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	for _, p := range []string{"token ", "Bearer ", "bearer "} {
		if t, ok := strings.CutPrefix(h, p); ok {
			return t
		}
	}
	return ""
}

// page serves one page of a list with GitHub's Link header.
func (s *Server) page(r *http.Request, items []any) status {
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per <= 0 {
		per = 30
	}
	per = min(per, 100)
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	if page <= 0 {
		page = 1
	}
	last := max(1, (len(items)+per-1)/per)
	lo, hi := min((page-1)*per, len(items)), min(page*per, len(items))
	st := status{code: 200, body: append([]any{}, items[lo:hi]...)}
	link := func(p int, rel string) string {
		u := *r.URL
		q := u.Query()
		q.Set("page", strconv.Itoa(p))
		q.Set("per_page", strconv.Itoa(per))
		u.RawQuery = q.Encode()
		return fmt.Sprintf(`<%s%s>; rel="%s"`, s.URL, u.RequestURI(), rel)
	}
	var links []string
	if page < last {
		links = append(links, link(page+1, "next"), link(last, "last"))
	}
	if page > 1 {
		links = append(links, link(1, "first"), link(page-1, "prev"))
	}
	if len(links) > 0 {
		st.hdr = map[string]string{"Link": strings.Join(links, ", ")}
	}
	return st
}

func (s *Server) commentJSON(c *Comment) map[string]any {
	return map[string]any{
		"id": c.ID, "node_id": fmt.Sprintf("IC_%d", c.ID), "body": c.Body,
		"user":       map[string]any{"login": c.User, "type": "Bot"},
		"created_at": c.CreatedAt.Format(time.RFC3339), "updated_at": c.CreatedAt.Format(time.RFC3339),
		"html_url": fmt.Sprintf("%s/o/r/pull/1#issuecomment-%d", s.URL, c.ID),
	}
}

func (s *Server) commentsJSON(pr int) []any {
	var out []any
	for _, c := range s.comments[pr] {
		out = append(out, s.commentJSON(c))
	}
	return out
}

func readBody(r *http.Request) (string, bool) {
	var in struct {
		Body *string `json:"body"`
	}
	b, _ := io.ReadAll(r.Body)
	if json.Unmarshal(b, &in) != nil || in.Body == nil {
		return "", false
	}
	return *in.Body, true
}

func tooLong() status {
	return status{code: http.StatusUnprocessableEntity, body: map[string]any{
		"message": "Validation Failed",
		"errors": []any{map[string]any{"resource": "IssueComment", "code": "custom", "field": "body",
			"message": "body is too long (maximum is 65536 characters)"}},
	}}
}

func (s *Server) createComment(r *http.Request, pr int, access string) status {
	body, ok := readBody(r)
	if !ok {
		return msg(http.StatusUnprocessableEntity, "Invalid request")
	}
	if utf8.RuneCountInString(body) > 65536 {
		return tooLong()
	}
	user := s.users[bearer(r)]
	switch {
	case user != "":
	case access != "write":
		user = access
	default:
		user = "github-actions[bot]"
	}
	return status{code: http.StatusCreated, body: s.commentJSON(s.addComment(pr, user, body))}
}

func (s *Server) commentByID(r *http.Request, id int64, access string) status {
	for pr, list := range s.comments {
		for i, c := range list {
			if c.ID != id {
				continue
			}
			switch r.Method {
			case http.MethodPatch:
				body, ok := readBody(r)
				if !ok {
					return msg(http.StatusUnprocessableEntity, "Invalid request")
				}
				if utf8.RuneCountInString(body) > 65536 {
					return tooLong()
				}
				c.Body = body
				return status{code: 200, body: s.commentJSON(c)}
			case http.MethodDelete:
				s.comments[pr] = append(list[:i:i], list[i+1:]...)
				return status{code: http.StatusNoContent}
			default:
				return status{code: 200, body: s.commentJSON(c)}
			}
		}
	}
	return msg(http.StatusNotFound, "Not Found")
}

func (s *Server) graphql(r *http.Request, access string) status {
	var in struct {
		Query     string         `json:"query"`
		Variables map[string]any `json:"variables"`
	}
	b, _ := io.ReadAll(r.Body)
	if json.Unmarshal(b, &in) != nil || !strings.Contains(in.Query, "minimizeComment") {
		return status{code: 200, body: map[string]any{"errors": []any{map[string]any{"message": "unsupported query"}}}}
	}
	if access != "write" {
		return status{code: 200, body: map[string]any{"errors": []any{map[string]any{"message": "Resource not accessible by integration"}}}}
	}
	id, _ := in.Variables["id"].(string)
	n, _ := strconv.ParseInt(strings.TrimPrefix(id, "IC_"), 10, 64)
	for _, list := range s.comments {
		for _, c := range list {
			if c.ID == n {
				c.Minimized = true
				return status{code: 200, body: map[string]any{"data": map[string]any{"minimizeComment": map[string]any{"minimizedComment": map[string]any{"isMinimized": true}}}}}
			}
		}
	}
	return status{code: 200, body: map[string]any{"errors": []any{map[string]any{"message": "Could not resolve to a node with the global id of '" + id + "'"}}}}
}

func prJSON(p *PR, baseRepo string) map[string]any {
	headRepo := p.HeadRepo
	if headRepo == "" {
		headRepo = baseRepo
	}
	state := "open"
	if p.Closed {
		state = "closed"
	}
	var merged any
	if p.MergeCommitSHA != "" {
		state, merged = "closed", "2026-11-02T12:00:00Z"
	}
	return map[string]any{"number": p.Number, "state": state, "merged_at": merged, "merge_commit_sha": p.MergeCommitSHA,
		"base": map[string]any{"sha": p.BaseSHA, "ref": "main", "repo": map[string]any{"full_name": baseRepo}},
		"head": map[string]any{"sha": p.HeadSHA, "ref": p.HeadRef, "user": map[string]any{"login": p.HeadOwner},
			"repo": map[string]any{"full_name": headRepo}}}
}

func sortedPRs(m map[int]*PR) []int {
	var ns []int
	for n := range m {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	return ns
}

func blobSHA(content []byte) string {
	h := uint64(14695981039346656037)
	for _, b := range content {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return fmt.Sprintf("%040x", h)
}

func (s *Server) contents(r *http.Request, path string) status {
	path, _ = url.PathUnescape(path)
	files := s.files[r.URL.Query().Get("ref")]
	content, ok := files[path]
	if !ok {
		// A directory: list the files directly in it.
		var entries []any
		for p, c := range files {
			if dir, name, found := strings.Cut(p, path+"/"); found && dir == "" && !strings.Contains(name, "/") {
				entries = append(entries, map[string]any{"type": "file", "name": name, "path": p, "sha": blobSHA(c), "size": len(c)})
			}
		}
		if entries == nil {
			return msg(http.StatusNotFound, "Not Found")
		}
		sort.Slice(entries, func(i, j int) bool {
			return entries[i].(map[string]any)["name"].(string) < entries[j].(map[string]any)["name"].(string)
		})
		return status{code: 200, body: entries}
	}
	m := map[string]any{"type": "file", "name": path[strings.LastIndex(path, "/")+1:], "path": path,
		"sha": blobSHA(content), "size": len(content), "encoding": "base64", "content": base64.StdEncoding.EncodeToString(content)}
	if len(content) > 1<<20 { // like GitHub: no content above 1 MB
		m["encoding"], m["content"] = "none", ""
	}
	return status{code: 200, body: m}
}

func (s *Server) labelsRoute(r *http.Request, pr int, rest []string) status {
	list := func() status {
		var out []any
		for _, l := range s.labels[pr] {
			out = append(out, map[string]any{"name": l})
		}
		return s.page(r, out)
	}
	switch r.Method {
	case http.MethodGet:
		return list()
	case http.MethodPost:
		var names []string
		b, _ := io.ReadAll(r.Body)
		if json.Unmarshal(b, &names) != nil {
			var obj struct {
				Labels []string `json:"labels"`
			}
			json.Unmarshal(b, &obj)
			names = obj.Labels
		}
		for _, n := range names {
			s.addLabel(pr, n, s.actor(r))
		}
		return list()
	case http.MethodDelete:
		if len(rest) != 1 {
			return msg(http.StatusNotFound, "Not Found")
		}
		name, _ := url.PathUnescape(rest[0])
		if s.removeLabel(pr, name, s.actor(r)) {
			return list()
		}
		return msg(http.StatusNotFound, "Label does not exist")
	}
	return msg(http.StatusNotFound, "Not Found")
}

func (s *Server) download(path string) status {
	id, _ := strconv.ParseInt(strings.TrimPrefix(path, "/download/"), 10, 64)
	for _, list := range s.artifacts {
		for _, a := range list {
			if a.ID == id {
				return status{code: 200, body: a.Zip, hdr: map[string]string{"Content-Type": "application/zip"}}
			}
		}
	}
	return msg(http.StatusNotFound, "Not Found")
}

// installationToken issues tokens to an App's JWT whose issuer is the App
// (the fake does not check the signature).
func (s *Server) installationToken(r *http.Request, path string) status {
	if st, ok := s.checkJWT(r); !ok {
		return st
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) != 4 || parts[3] != "access_tokens" || r.Method != http.MethodPost {
		return msg(http.StatusNotFound, "Not Found")
	}
	id, _ := strconv.ParseInt(parts[2], 10, 64)
	if !s.installs[id] {
		return msg(http.StatusNotFound, "Not Found")
	}
	token := fmt.Sprintf("ghs_install%d_%d", id, s.requests)
	s.tokens[token] = "write"
	s.users[token] = s.appSlug + "[bot]"
	return status{code: http.StatusCreated, body: map[string]any{"token": token, "expires_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}}
}

// checkJWT accepts an App's JWT whose issuer is the App (the fake does not
// check the signature).
func (s *Server) checkJWT(r *http.Request) (status, bool) {
	h := r.Header.Get("Authorization")
	jwt, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || strings.Count(jwt, ".") != 2 {
		return msg(http.StatusUnauthorized, "A JSON web token could not be decoded"), false
	}
	var claims struct {
		Iss any   `json:"iss"`
		Exp int64 `json:"exp"`
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.Split(jwt, ".")[1])
	if err != nil || json.Unmarshal(payload, &claims) != nil || fmt.Sprint(claims.Iss) != strconv.FormatInt(s.appID, 10) || claims.Exp < time.Now().Unix() {
		return msg(http.StatusUnauthorized, "'Issuer' claim ('iss') must be an Integer"), false
	}
	return status{}, true
}
