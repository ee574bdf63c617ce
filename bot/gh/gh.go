package gh

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/go-github/v60/github"
)

// Client implements GitHub on go-github.
type Client struct {
	gh         *github.Client
	http       *http.Client
	graphqlURL string
	token      string
}

// NewClient builds a client for the REST API at apiURL (https://api.github.com,
// or https://HOST/api/v3 for GitHub Enterprise Server) and GraphQL at
// graphqlURL. httpClient carries authentication (a token, or an App
// installation transport) and retries; token is also sent to GraphQL when
// set.
func NewClient(httpClient *http.Client, apiURL, graphqlURL, token string) (*Client, error) {
	if httpClient == nil {
		httpClient = &http.Client{Transport: &RetryTransport{}}
	}
	gh := github.NewClient(httpClient)
	if token != "" {
		gh = gh.WithAuthToken(token)
	}
	apiURL = strings.TrimSuffix(apiURL, "/")
	if apiURL == "" {
		apiURL = "https://api.github.com"
	}
	if apiURL != "https://api.github.com" {
		var err error
		base := apiURL + "/"
		if strings.HasSuffix(apiURL, "/api/v3") {
			gh, err = gh.WithEnterpriseURLs(base, strings.TrimSuffix(apiURL, "/api/v3")+"/api/uploads/")
		} else {
			gh.BaseURL, err = gh.BaseURL.Parse(base)
		}
		if err != nil {
			return nil, fmt.Errorf("GITHUB_API_URL %q: %w", apiURL, err)
		}
	}
	if graphqlURL == "" {
		graphqlURL = strings.TrimSuffix(apiURL, "/v3") + "/graphql"
		if apiURL == "https://api.github.com" {
			graphqlURL = "https://api.github.com/graphql"
		}
	}
	return &Client{gh: gh, http: httpClient, graphqlURL: graphqlURL, token: token}, nil
}

// apiError turns go-github errors into planpr's: a read-only token, or a
// short line with the status.
func apiError(what string, err error) error {
	if err == nil {
		return nil
	}
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		if er.Response.StatusCode == http.StatusForbidden && strings.Contains(er.Message, "Resource not accessible") {
			return fmt.Errorf("%s: %w", what, ErrReadOnly)
		}
		se := &StatusError{What: what, Status: er.Response.StatusCode, Message: er.Message}
		var rl *github.RateLimitError
		var abuse *github.AbuseRateLimitError
		switch {
		case errors.As(err, &abuse):
			se.Wait = abuse.GetRetryAfter()
		case errors.As(err, &rl):
			se.Wait = time.Until(rl.Rate.Reset.Time)
		}
		if ra, perr := strconv.Atoi(er.Response.Header.Get("Retry-After")); perr == nil && se.Wait == 0 {
			se.Wait = time.Duration(ra) * time.Second
		}
		return se
	}
	return fmt.Errorf("%s: %w", what, err)
}

// StatusError is GitHub's answer to a request that failed: its status,
// and how long it asked to wait, if it did.
type StatusError struct {
	What    string
	Status  int
	Message string
	Wait    time.Duration
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s: GitHub answered %d %s", e.What, e.Status, e.Message)
}

// Temporary reports whether trying again later may succeed: GitHub's
// faults (5xx) and its rate limits (429, or 403 with a wait).
func (e *StatusError) Temporary() bool {
	return e.Status >= 500 || e.Status == http.StatusTooManyRequests || e.Status == http.StatusForbidden && e.Wait > 0
}

// RetryAfter is the wait GitHub asked for (0 when it did not say).
func (e *StatusError) RetryAfter() time.Duration { return max(e.Wait, 0) }

func toComment(c *github.IssueComment) *Comment {
	return &Comment{ID: c.GetID(), NodeID: c.GetNodeID(), Body: c.GetBody(), User: c.GetUser().GetLogin(),
		CreatedAt: c.GetCreatedAt().Time, URL: c.GetHTMLURL()}
}

// allPages lists every page of a list, 100 at a time, following GitHub's
// next page until there is none.
func allPages[T any](what string, list func(page github.ListOptions) ([]T, *github.Response, error)) ([]T, error) {
	var out []T
	opts := github.ListOptions{PerPage: 100}
	for {
		items, resp, err := list(opts)
		if err != nil {
			return nil, apiError(what, err)
		}
		out = append(out, items...)
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

func (c *Client) ListComments(ctx context.Context, repo Repo, pr int) ([]*Comment, error) {
	comments, err := allPages("listing comments", func(page github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
		return c.gh.Issues.ListComments(ctx, repo.Owner, repo.Name, pr, &github.IssueListCommentsOptions{ListOptions: page})
	})
	out := make([]*Comment, len(comments))
	for i, cm := range comments {
		out[i] = toComment(cm)
	}
	return out, err
}

// MaxCommentChars is the longest comment body GitHub accepts, in
// characters.
const MaxCommentChars = 65536

func checkLength(body string) error {
	if utf8.RuneCountInString(body) > MaxCommentChars {
		return ErrTooLong
	}
	return nil
}

func (c *Client) CreateComment(ctx context.Context, repo Repo, pr int, body string) (*Comment, error) {
	if err := checkLength(body); err != nil {
		return nil, err
	}
	cm, _, err := c.gh.Issues.CreateComment(ctx, repo.Owner, repo.Name, pr, &github.IssueComment{Body: &body})
	if err != nil {
		return nil, apiError("creating the comment", err)
	}
	return toComment(cm), nil
}

func (c *Client) EditComment(ctx context.Context, repo Repo, id int64, body string) (*Comment, error) {
	if err := checkLength(body); err != nil {
		return nil, err
	}
	cm, _, err := c.gh.Issues.EditComment(ctx, repo.Owner, repo.Name, id, &github.IssueComment{Body: &body})
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusNotFound {
		return nil, fmt.Errorf("updating the comment: %w", ErrGone)
	}
	if err != nil {
		return nil, apiError("updating the comment", err)
	}
	return toComment(cm), nil
}

func (c *Client) DeleteComment(ctx context.Context, repo Repo, id int64) error {
	_, err := c.gh.Issues.DeleteComment(ctx, repo.Owner, repo.Name, id)
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusNotFound {
		return nil // already gone: another run deleted it
	}
	return apiError("deleting a duplicate comment", err)
}

// MinimizeComment hides a comment as outdated, through GraphQL.
func (c *Client) MinimizeComment(ctx context.Context, nodeID string) error {
	q := map[string]any{
		"query":     `mutation($id: ID!) { minimizeComment(input: {subjectId: $id, classifier: OUTDATED}) { minimizedComment { isMinimized } } }`,
		"variables": map[string]any{"id": nodeID},
	}
	body, _ := json.Marshal(q)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.graphqlURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("hiding an old comment: %w", err)
	}
	defer resp.Body.Close()
	var out struct {
		Errors []struct{ Message string } `json:"errors"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != http.StatusOK || len(out.Errors) > 0 {
		msg := resp.Status
		if len(out.Errors) > 0 {
			msg = out.Errors[0].Message
		}
		if strings.Contains(msg, "Resource not accessible") {
			return fmt.Errorf("hiding an old comment: %w", ErrReadOnly)
		}
		return fmt.Errorf("hiding an old comment: GitHub answered %s", msg)
	}
	return nil
}

func (c *Client) PullRequest(ctx context.Context, repo Repo, pr int) (*PullRequest, error) {
	p, _, err := c.gh.PullRequests.Get(ctx, repo.Owner, repo.Name, pr)
	if err != nil {
		return nil, apiError(fmt.Sprintf("reading pull request #%d", pr), err)
	}
	return &PullRequest{Number: p.GetNumber(), BaseSHA: p.GetBase().GetSHA(), HeadSHA: p.GetHead().GetSHA(), HeadRef: p.GetHead().GetRef(),
		HeadRepo: p.GetHead().GetRepo().GetFullName(), Open: p.GetState() == "open"}, nil
}

// MergeBase is the commit where head branched off base (the compare
// API's merge_base_commit): what a pull request's changes are measured
// against, rather than the base branch's tip, which moves on.
func (c *Client) MergeBase(ctx context.Context, repo Repo, base, head string) (string, error) {
	cmp, _, err := c.gh.Repositories.CompareCommits(ctx, repo.Owner, repo.Name, base, head, &github.ListOptions{PerPage: 1})
	if err != nil {
		return "", apiError("comparing "+base+"..."+head, err)
	}
	return cmp.GetMergeBaseCommit().GetSHA(), nil
}

func (c *Client) PullRequestForBranch(ctx context.Context, repo Repo, owner, branch string) (int, error) {
	prs, _, err := c.gh.PullRequests.List(ctx, repo.Owner, repo.Name, &github.PullRequestListOptions{State: "open", Head: owner + ":" + branch})
	if err != nil {
		return 0, apiError("finding the pull request of branch "+branch, err)
	}
	if len(prs) == 0 {
		return 0, fmt.Errorf("no open pull request for branch %s:%s", owner, branch)
	}
	return prs[0].GetNumber(), nil
}

func (c *Client) ListFiles(ctx context.Context, repo Repo, pr int) ([]ChangedFile, error) {
	files, err := allPages("listing the pull request's files", func(page github.ListOptions) ([]*github.CommitFile, *github.Response, error) {
		return c.gh.PullRequests.ListFiles(ctx, repo.Owner, repo.Name, pr, &page)
	})
	out := make([]ChangedFile, len(files))
	for i, f := range files {
		out[i] = ChangedFile{Name: f.GetFilename(), Status: f.GetStatus(), PreviousName: f.GetPreviousFilename()}
	}
	return out, err
}

// FileAt reads a file at a ref through the contents API, or the blob API
// for files over 1 MB, whose content the contents API leaves out.
func (c *Client) FileAt(ctx context.Context, repo Repo, path, ref string) ([]byte, bool, error) {
	fc, _, resp, err := c.gh.Repositories.GetContents(ctx, repo.Owner, repo.Name, path, &github.RepositoryContentGetOptions{Ref: ref})
	if resp != nil && resp.StatusCode == http.StatusNotFound {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, apiError(fmt.Sprintf("reading %s at %s", path, ref), err)
	}
	if fc == nil {
		return nil, false, fmt.Errorf("reading %s at %s: it is a directory", path, ref)
	}
	if int64(fc.GetSize()) > MaxFileFetch {
		return nil, false, fmt.Errorf("reading %s at %s (%d MiB): %w", path, ref, fc.GetSize()>>20, ErrFileTooLarge)
	}
	if fc.GetEncoding() == "none" || (fc.Content == nil && fc.GetSize() > 0) {
		b, _, err := c.gh.Git.GetBlobRaw(ctx, repo.Owner, repo.Name, fc.GetSHA())
		if err != nil {
			return nil, false, apiError(fmt.Sprintf("reading the blob of %s at %s", path, ref), err)
		}
		return b, true, nil
	}
	s, err := fc.GetContent()
	if err != nil {
		return nil, false, fmt.Errorf("reading %s at %s: %w", path, ref, err)
	}
	return []byte(s), true, nil
}

func (c *Client) Labels(ctx context.Context, repo Repo, pr int) ([]string, error) {
	labels, err := allPages("listing labels", func(page github.ListOptions) ([]*github.Label, *github.Response, error) {
		return c.gh.Issues.ListLabelsByIssue(ctx, repo.Owner, repo.Name, pr, &page)
	})
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = l.GetName()
	}
	return out, err
}

func (c *Client) AddLabels(ctx context.Context, repo Repo, pr int, labels []string) error {
	_, _, err := c.gh.Issues.AddLabelsToIssue(ctx, repo.Owner, repo.Name, pr, labels)
	return apiError("adding labels", err)
}

func (c *Client) RemoveLabel(ctx context.Context, repo Repo, pr int, label string) error {
	resp, err := c.gh.Issues.RemoveLabelForIssue(ctx, repo.Owner, repo.Name, pr, label)
	if resp != nil && resp.StatusCode == http.StatusNotFound {
		return nil
	}
	return apiError("removing a label", err)
}

func (c *Client) ListDir(ctx context.Context, repo Repo, dir, ref string) ([]DirFile, error) {
	_, entries, resp, err := c.gh.Repositories.GetContents(ctx, repo.Owner, repo.Name, dir, &github.RepositoryContentGetOptions{Ref: ref})
	if resp != nil && resp.StatusCode == http.StatusNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, apiError(fmt.Sprintf("listing %s at %s", dir, ref), err)
	}
	var files []DirFile
	for _, e := range entries {
		if e.GetType() == "file" {
			files = append(files, DirFile{Name: e.GetName(), Size: int64(e.GetSize())})
		}
	}
	return files, nil
}

func (c *Client) ListArtifacts(ctx context.Context, repo Repo, runID int64) ([]Artifact, error) {
	arts, err := allPages("listing the run's artifacts", func(page github.ListOptions) ([]*github.Artifact, *github.Response, error) {
		list, resp, err := c.gh.Actions.ListWorkflowRunArtifacts(ctx, repo.Owner, repo.Name, runID, &page)
		if err != nil {
			return nil, resp, err
		}
		return list.Artifacts, resp, nil
	})
	out := make([]Artifact, len(arts))
	for i, a := range arts {
		out[i] = Artifact{ID: a.GetID(), Name: a.GetName(), Size: a.GetSizeInBytes(), Expired: a.GetExpired()}
	}
	return out, err
}

func (c *Client) ArtifactURL(ctx context.Context, repo Repo, id int64) (string, error) {
	u, _, err := c.gh.Actions.DownloadArtifact(ctx, repo.Owner, repo.Name, id, 0)
	if err != nil {
		return "", apiError("locating an artifact's download", err)
	}
	return u.String(), nil
}

// ActionsBot is the login that comments made with a workflow's
// GITHUB_TOKEN carry.
const ActionsBot = "github-actions[bot]"

// Login is the login a personal access token acts as. Workflow and
// installation tokens have none (GitHub answers 403): then it is "".
func (c *Client) Login(ctx context.Context) (string, error) {
	u, resp, err := c.gh.Users.Get(ctx, "")
	if resp != nil && (resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusNotFound) {
		return "", nil
	}
	if err != nil {
		return "", apiError("finding the token's login", err)
	}
	return u.GetLogin(), nil
}

// AppLogin is the login an App's installation comments as, SLUG[bot]; the
// client must authenticate as the App (its JWT).
func (c *Client) AppLogin(ctx context.Context) (string, error) {
	app, _, err := c.gh.Apps.Get(ctx, "")
	if err != nil {
		return "", apiError("reading the App", err)
	}
	if app.GetSlug() == "" {
		return "", errors.New("reading the App: GitHub gave no slug")
	}
	return app.GetSlug() + "[bot]", nil
}

// HookDelivery is one attempt GitHub made to deliver to the App's webhook.
type HookDelivery struct {
	ID          int64
	GUID        string
	StatusCode  int
	Event       string
	DeliveredAt time.Time
	Redelivery  bool // asked for again, not GitHub's first attempt
}

// HookDeliveries lists the App's deliveries since a time, newest first (as
// the App: the client's transport must be the App's JWT). At most 50 pages.
func (c *Client) HookDeliveries(ctx context.Context, since time.Time) ([]HookDelivery, error) {
	var out []HookDelivery
	opts := &github.ListCursorOptions{PerPage: 100}
	for page := 0; page < 50; page++ {
		list, resp, err := c.gh.Apps.ListHookDeliveries(ctx, opts)
		if err != nil {
			return nil, apiError("listing the App's webhook deliveries", err)
		}
		for _, d := range list {
			at := d.GetDeliveredAt().Time
			if at.Before(since) {
				return out, nil
			}
			out = append(out, HookDelivery{ID: d.GetID(), GUID: d.GetGUID(), StatusCode: d.GetStatusCode(), Event: d.GetEvent(), DeliveredAt: at, Redelivery: d.GetRedelivery()})
		}
		if resp.Cursor == "" {
			break
		}
		opts.Cursor = resp.Cursor
	}
	return out, nil
}

// Redeliver asks GitHub to deliver an attempt's payload again (as the App).
func (c *Client) Redeliver(ctx context.Context, id int64) error {
	_, _, err := c.gh.Apps.RedeliverHookDelivery(ctx, id)
	var accepted *github.AcceptedError
	if errors.As(err, &accepted) {
		return nil
	}
	return apiError(fmt.Sprintf("redelivering webhook delivery %d", id), err)
}

// Run is a workflow run.
type Run struct {
	ID                    int64
	Name, HeadSHA, Status string
	Conclusion, HTMLURL   string
	StartedAt             time.Time
}

// RunsForCommit lists the workflow runs of a commit, newest first.
func (c *Client) RunsForCommit(ctx context.Context, repo Repo, sha string) ([]Run, error) {
	var out []Run
	opts := &github.ListWorkflowRunsOptions{HeadSHA: sha, ListOptions: github.ListOptions{PerPage: 100}}
	for {
		list, resp, err := c.gh.Actions.ListRepositoryWorkflowRuns(ctx, repo.Owner, repo.Name, opts)
		if err != nil {
			return nil, apiError("listing the commit's workflow runs", err)
		}
		for _, r := range list.WorkflowRuns {
			out = append(out, Run{ID: r.GetID(), Name: r.GetName(), HeadSHA: r.GetHeadSHA(), Status: r.GetStatus(), Conclusion: r.GetConclusion(),
				HTMLURL: r.GetHTMLURL(), StartedAt: r.GetRunStartedAt().Time})
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// MergedPullRequest is the pull request whose merge made a commit (0 when
// none did): the one the commit's apply answers to.
func (c *Client) MergedPullRequest(ctx context.Context, repo Repo, sha string) (int, error) {
	prs, err := allPages("listing the commit's pull requests", func(page github.ListOptions) ([]*github.PullRequest, *github.Response, error) {
		return c.gh.PullRequests.ListPullRequestsWithCommit(ctx, repo.Owner, repo.Name, sha, &page)
	})
	if err != nil {
		return 0, err
	}
	for _, p := range prs {
		if p.MergedAt != nil && p.GetMergeCommitSHA() == sha {
			return p.GetNumber(), nil
		}
	}
	for _, p := range prs {
		if p.MergedAt != nil {
			return p.GetNumber(), nil
		}
	}
	return 0, nil
}

// Issue is an issue of a repository (not a pull request).
type Issue struct {
	Number      int
	Title, Body string
	State       string // open or closed
	User        string
	Labels      []string
	URL         string
}

func toIssue(i *github.Issue) *Issue {
	out := &Issue{Number: i.GetNumber(), Title: i.GetTitle(), Body: i.GetBody(), State: i.GetState(), User: i.GetUser().GetLogin(), URL: i.GetHTMLURL()}
	for _, l := range i.Labels {
		out.Labels = append(out.Labels, l.GetName())
	}
	return out
}

// IssuesLabelled lists a repository's issues with label, open and
// closed, every page (pull requests left out).
func (c *Client) IssuesLabelled(ctx context.Context, repo Repo, label string) ([]*Issue, error) {
	issues, err := allPages("listing issues", func(page github.ListOptions) ([]*github.Issue, *github.Response, error) {
		return c.gh.Issues.ListByRepo(ctx, repo.Owner, repo.Name, &github.IssueListByRepoOptions{Labels: []string{label}, State: "all", ListOptions: page})
	})
	var out []*Issue
	for _, i := range issues {
		if !i.IsPullRequest() {
			out = append(out, toIssue(i))
		}
	}
	return out, err
}

// CreateIssue opens an issue.
func (c *Client) CreateIssue(ctx context.Context, repo Repo, title, body string, labels []string) (*Issue, error) {
	if err := checkLength(body); err != nil {
		return nil, err
	}
	i, _, err := c.gh.Issues.Create(ctx, repo.Owner, repo.Name, &github.IssueRequest{Title: &title, Body: &body, Labels: &labels})
	if err != nil {
		return nil, apiError("opening the issue", err)
	}
	return toIssue(i), nil
}

// EditIssue sets an issue's title, body and state ("open" or "closed");
// an empty one is left as it is.
func (c *Client) EditIssue(ctx context.Context, repo Repo, number int, title, body, state string) (*Issue, error) {
	req := &github.IssueRequest{}
	if title != "" {
		req.Title = &title
	}
	if body != "" {
		if err := checkLength(body); err != nil {
			return nil, err
		}
		req.Body = &body
	}
	if state != "" {
		req.State = &state
	}
	i, _, err := c.gh.Issues.Edit(ctx, repo.Owner, repo.Name, number, req)
	if err != nil {
		return nil, apiError("editing the issue", err)
	}
	return toIssue(i), nil
}
