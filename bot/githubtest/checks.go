package githubtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// CheckRun is a stored check run, as GitHub keeps it.
type CheckRun struct {
	ID                     int64
	Name, HeadSHA, Status  string
	Conclusion, DetailsURL string
	Title, Summary, Text   string
	Annotations            []Annotation
	ExternalID             string
	Updates                int    // PATCHes it took
	App                    string // the slug of the app that made it: only it may update the run
}

// Annotation is a check run's annotation.
type Annotation struct {
	Path                  string
	StartLine, EndLine    int
	Level, Title, Message string
}

// LabelEvent is a labeled or unlabeled event of an issue.
type LabelEvent struct {
	Event, Label, Actor string
}

// CheckRuns returns the check runs on a commit, oldest first.
func (s *Server) CheckRuns(sha string) []CheckRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []CheckRun
	for _, c := range s.checkRuns {
		if c.HeadSHA == sha {
			cp := *c
			cp.Annotations = append([]Annotation(nil), c.Annotations...)
			out = append(out, cp)
		}
	}
	return out
}

// Label adds a label to a pull request as login, with its event.
func (s *Server) Label(pr int, label, login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addLabel(pr, label, login)
}

// Unlabel removes a label from a pull request as login, with its event.
func (s *Server) Unlabel(pr int, label, login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.removeLabel(pr, label, login)
}

// SetPermission sets a user's access to every repository: admin,
// maintain, write, triage, read or none (the default).
func (s *Server) SetPermission(login, permission string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.permissions[login] = permission
}

func (s *Server) addLabel(pr int, label, actor string) {
	for _, l := range s.labels[pr] {
		if l == label {
			return
		}
	}
	s.labels[pr] = append(s.labels[pr], label)
	s.labelEvents[pr] = append(s.labelEvents[pr], LabelEvent{"labeled", label, actor})
}

func (s *Server) removeLabel(pr int, label, actor string) bool {
	for i, l := range s.labels[pr] {
		if l == label {
			s.labels[pr] = append(s.labels[pr][:i:i], s.labels[pr][i+1:]...)
			s.labelEvents[pr] = append(s.labelEvents[pr], LabelEvent{"unlabeled", label, actor})
			return true
		}
	}
	return false
}

// AddCheckRun stores a check run as another app (or workflow) made it;
// it returns its id.
func (s *Server) AddCheckRun(c CheckRun) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	c.ID = s.nextID
	s.checkRuns = append(s.checkRuns, &c)
	return c.ID
}

// appOf is the app a login acts for: its slug ("github-actions" for a
// workflow's token).
func appOf(login string) string { return strings.TrimSuffix(login, "[bot]") }

// actor is who a request acts as: the token's user, else the workflow's
// bot.
func (s *Server) actor(r *http.Request) string {
	if u := s.users[bearer(r)]; u != "" {
		return u
	}
	return "github-actions[bot]"
}

// checksRoute serves POST check-runs, PATCH check-runs/{id} and GET
// commits/{ref}/check-runs; s.mu is held. A token without checks: write
// is refused as GitHub refuses it.
func (s *Server) checksRoute(r *http.Request, rest []string, access string) status {
	if r.Method != http.MethodGet && access == "write-no-checks" {
		return msg(http.StatusForbidden, "Resource not accessible by integration")
	}
	switch {
	case len(rest) == 3 && rest[0] == "commits" && rest[2] == "check-runs" && r.Method == http.MethodGet:
		name := r.URL.Query().Get("check_name")
		var list []any
		for _, c := range s.checkRuns {
			if c.HeadSHA == rest[1] && (name == "" || c.Name == name) {
				list = append(list, checkRunJSON(c, s.URL))
			}
		}
		if list == nil {
			list = []any{}
		}
		return status{code: 200, body: map[string]any{"total_count": len(list), "check_runs": list}}
	case len(rest) == 1 && rest[0] == "check-runs" && r.Method == http.MethodPost:
		var in checkRunInput
		if st, ok := readCheckRun(r, &in); !ok {
			return st
		}
		if in.Name == "" || in.HeadSHA == "" {
			return msg(http.StatusUnprocessableEntity, "Invalid request: name and head_sha are required")
		}
		s.nextID++
		c := &CheckRun{ID: s.nextID, App: appOf(s.actor(r))}
		in.apply(c)
		s.checkRuns = append(s.checkRuns, c)
		return status{code: http.StatusCreated, body: checkRunJSON(c, s.URL)}
	case len(rest) == 2 && rest[0] == "check-runs" && r.Method == http.MethodPatch:
		id, _ := strconv.ParseInt(rest[1], 10, 64)
		for _, c := range s.checkRuns {
			if c.ID == id {
				if c.App != appOf(s.actor(r)) { // only the app that made a check run may update it
					return msg(http.StatusForbidden, "Resource not accessible by integration")
				}
				var in checkRunInput
				if st, ok := readCheckRun(r, &in); !ok {
					return st
				}
				in.apply(c)
				c.Updates++
				return status{code: 200, body: checkRunJSON(c, s.URL)}
			}
		}
		return msg(http.StatusNotFound, "Not Found")
	}
	return msg(http.StatusNotFound, "Not Found")
}

type checkRunInput struct {
	Name       string `json:"name"`
	HeadSHA    string `json:"head_sha"`
	Status     string `json:"status"`
	Conclusion string `json:"conclusion"`
	DetailsURL string `json:"details_url"`
	ExternalID string `json:"external_id"`
	Output     *struct {
		Title       string `json:"title"`
		Summary     string `json:"summary"`
		Text        string `json:"text"`
		Annotations []struct {
			Path      string `json:"path"`
			StartLine int    `json:"start_line"`
			EndLine   int    `json:"end_line"`
			Level     string `json:"annotation_level"`
			Title     string `json:"title"`
			Message   string `json:"message"`
		} `json:"annotations"`
	} `json:"output"`
}

// readCheckRun reads a check run's body, refusing what GitHub refuses:
// a summary or text over 65,535 characters, more than 50 annotations.
func readCheckRun(r *http.Request, in *checkRunInput) (status, bool) {
	b, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(b, in); err != nil {
		return msg(http.StatusBadRequest, "Problems parsing JSON"), false
	}
	if o := in.Output; o != nil {
		if utf8.RuneCountInString(o.Summary) > 65535 || utf8.RuneCountInString(o.Text) > 65535 {
			return msg(http.StatusUnprocessableEntity, "Invalid request: output.summary or output.text is too long (maximum is 65535 characters)"), false
		}
		if len(o.Annotations) > 50 {
			return msg(http.StatusUnprocessableEntity, fmt.Sprintf("Invalid request: %d annotations; at most 50 a request", len(o.Annotations))), false
		}
		if o.Title == "" || o.Summary == "" {
			return msg(http.StatusUnprocessableEntity, "Invalid request: output.title and output.summary are required"), false
		}
	}
	return status{}, true
}

func (in *checkRunInput) apply(c *CheckRun) {
	if in.Name != "" {
		c.Name = in.Name
	}
	if in.HeadSHA != "" {
		c.HeadSHA = in.HeadSHA
	}
	c.Status, c.Conclusion = in.Status, in.Conclusion
	if in.DetailsURL != "" {
		c.DetailsURL = in.DetailsURL
	}
	if in.ExternalID != "" {
		c.ExternalID = in.ExternalID
	}
	if o := in.Output; o != nil {
		c.Title, c.Summary, c.Text = o.Title, o.Summary, o.Text
		for _, a := range o.Annotations { // GitHub adds them to the run's
			c.Annotations = append(c.Annotations, Annotation{a.Path, a.StartLine, a.EndLine, a.Level, a.Title, a.Message})
		}
	}
}

func checkRunJSON(c *CheckRun, base string) map[string]any {
	return map[string]any{"id": c.ID, "name": c.Name, "head_sha": c.HeadSHA, "status": c.Status, "conclusion": c.Conclusion,
		"html_url": fmt.Sprintf("%s/checks/%d", base, c.ID), "details_url": c.DetailsURL, "external_id": c.ExternalID,
		"output": map[string]any{"title": c.Title, "summary": c.Summary, "text": c.Text, "annotations_count": len(c.Annotations)},
		"app":    map[string]any{"slug": c.App}}
}

// eventsRoute serves GET issues/{n}/events: its label events.
func (s *Server) eventsRoute(r *http.Request, pr int) status {
	var list []any
	for i, e := range s.labelEvents[pr] {
		list = append(list, map[string]any{"id": i + 1, "event": e.Event, "label": map[string]any{"name": e.Label}, "actor": map[string]any{"login": e.Actor}})
	}
	return s.page(r, list)
}

// permissionRoute serves GET collaborators/{user}/permission.
func (s *Server) permissionRoute(user string) status {
	p := s.permissions[user]
	if p == "" {
		p = "none"
	}
	legacy := map[string]string{"maintain": "write", "triage": "read"}[p]
	if legacy == "" {
		legacy = p
	}
	return status{code: 200, body: map[string]any{"permission": legacy, "role_name": p, "user": map[string]any{"login": user, "role_name": p}}}
}

// Run is a stored workflow run.
type Run struct {
	ID                    int64
	Name, HeadSHA, Status string
	Conclusion            string
	StartedAt             time.Time
}

// AddRun stores a workflow run: GET actions/runs?head_sha= lists it.
func (s *Server) AddRun(r Run) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs = append(s.runs, r)
}

// runsRoute serves GET actions/runs, filtered by head_sha, newest first.
func (s *Server) runsRoute(r *http.Request) status {
	sha := r.URL.Query().Get("head_sha")
	var list []any
	for i := len(s.runs) - 1; i >= 0; i-- {
		run := s.runs[i]
		if sha == "" || run.HeadSHA == sha {
			list = append(list, map[string]any{"id": run.ID, "name": run.Name, "head_sha": run.HeadSHA, "status": run.Status, "conclusion": run.Conclusion,
				"html_url": fmt.Sprintf("https://github.com/o/r/actions/runs/%d", run.ID), "run_started_at": run.StartedAt.Format(time.RFC3339)})
		}
	}
	if list == nil {
		list = []any{}
	}
	return status{code: 200, body: map[string]any{"total_count": len(list), "workflow_runs": list}}
}

// Merge merges a pull request: its merge made commit sha.
func (s *Server) Merge(pr int, sha string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.prs[pr]; p != nil {
		p.MergeCommitSHA = sha
	}
}
