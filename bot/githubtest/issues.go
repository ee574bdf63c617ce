package githubtest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Issue is an issue of the fake's repository (not a pull request).
type Issue struct {
	Number       int
	Title, Body  string
	State        string // open or closed
	Labels       []string
	User         string
	Edits, Opens int // PATCHes of it, and times it was reopened
}

// Issues are the repository's issues, in the order they were opened.
func (s *Server) Issues() []Issue {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Issue
	for _, n := range s.issueOrder {
		i := *s.issues[n]
		i.Labels = slices.Clone(i.Labels)
		out = append(out, i)
	}
	return out
}

// issueNumbers start past the pull requests tests make.
const firstIssue = 500

func (s *Server) issueJSON(i *Issue) map[string]any {
	labels := []any{}
	for _, l := range i.Labels {
		labels = append(labels, map[string]any{"name": l})
	}
	return map[string]any{"number": i.Number, "title": i.Title, "body": i.Body, "state": i.State, "labels": labels,
		"user": map[string]any{"login": i.User, "type": "Bot"}, "html_url": fmt.Sprintf("%s/o/r/issues/%d", s.URL, i.Number)}
}

// issuesRoute answers /repos/O/R/issues (list, create) and
// /repos/O/R/issues/N (read, edit), as GitHub does for issues: a title
// and a body within 65,536 characters, labels made as they are named,
// state open or closed.
func (s *Server) issuesRoute(r *http.Request, rest []string, access string) status {
	if s.issues == nil {
		s.issues = map[int]*Issue{}
	}
	var req struct {
		Title  *string  `json:"title"`
		Body   *string  `json:"body"`
		State  *string  `json:"state"`
		Labels []string `json:"labels"`
	}
	if r.Method == http.MethodPost || r.Method == http.MethodPatch {
		raw, _ := io.ReadAll(io.LimitReader(r.Body, 1<<21))
		if err := json.Unmarshal(raw, &req); err != nil {
			return msg(http.StatusBadRequest, "Problems parsing JSON")
		}
		if req.Body != nil && utf8.RuneCountInString(*req.Body) > 65536 {
			return tooLong()
		}
		if req.State != nil && *req.State != "open" && *req.State != "closed" {
			return msg(http.StatusUnprocessableEntity, "Validation Failed: state")
		}
	}
	switch {
	case len(rest) == 1 && r.Method == http.MethodPost:
		if req.Title == nil || *req.Title == "" {
			return msg(http.StatusUnprocessableEntity, "Validation Failed: title is missing")
		}
		user := s.users[bearer(r)]
		if user == "" {
			user = "github-actions[bot]"
		}
		n := firstIssue + len(s.issueOrder)
		i := &Issue{Number: n, Title: *req.Title, State: "open", Labels: req.Labels, User: user}
		if req.Body != nil {
			i.Body = *req.Body
		}
		s.issues[n], s.issueOrder = i, append(s.issueOrder, n)
		return status{code: http.StatusCreated, body: s.issueJSON(i)}
	case len(rest) == 1:
		want := r.URL.Query().Get("labels")
		state := r.URL.Query().Get("state")
		var items []any
		for _, n := range s.issueOrder {
			i := s.issues[n]
			if want != "" && !slices.Contains(i.Labels, want) || state != "all" && i.State != cmp.Or(state, "open") {
				continue
			}
			items = append(items, s.issueJSON(i))
		}
		return s.page(r, items)
	case len(rest) == 2:
		n, _ := strconv.Atoi(rest[1])
		i := s.issues[n]
		if i == nil {
			return msg(http.StatusNotFound, "Not Found")
		}
		if r.Method == http.MethodPatch {
			if req.Title != nil {
				i.Title = *req.Title
			}
			if req.Body != nil {
				i.Body = *req.Body
			}
			if req.State != nil {
				if *req.State == "open" && i.State == "closed" {
					i.Opens++
				}
				i.State = *req.State
			}
			if req.Labels != nil {
				i.Labels = req.Labels
			}
			i.Edits++
		}
		return status{code: 200, body: s.issueJSON(i)}
	}
	return msg(http.StatusNotFound, "Not Found")
}
