package gh

import (
	"context"

	"github.com/google/go-github/v60/github"
)

// CheckRun is planpr's check run on a commit.
type CheckRun struct {
	ID         int64
	Name       string
	HeadSHA    string
	URL        string // its page
	Conclusion string
	Title      string
	Summary    string
	ExternalID string // what its maker kept in it
	DetailsURL string
	App        string // the slug of the app that made it
}

// CheckSpec is a check run to create or update.
type CheckSpec struct {
	Name, SHA, Conclusion, DetailsURL, ExternalID string
	Output                                        CheckOutput
}

// CheckOutput is what a check run shows: its title, summary, text and
// annotations (at most MaxAnnotations a request).
type CheckOutput struct {
	Title, Summary, Text string
	Annotations          []Annotation
}

// Annotation marks a line of a file with a message.
type Annotation struct {
	Path      string
	StartLine int
	EndLine   int
	Level     string // notice, warning or failure
	Title     string
	Message   string
}

// MaxAnnotations is what one request may carry (GitHub's limit).
const MaxAnnotations = 50

// MaxCheckText bounds a check run's summary and its text (GitHub's limit,
// in characters).
const MaxCheckText = 65535

func checkOutput(o CheckOutput) *github.CheckRunOutput {
	out := &github.CheckRunOutput{Title: github.String(o.Title), Summary: github.String(o.Summary)}
	if o.Text != "" {
		out.Text = github.String(o.Text)
	}
	for _, a := range o.Annotations {
		out.Annotations = append(out.Annotations, &github.CheckRunAnnotation{Path: github.String(a.Path), StartLine: github.Int(a.StartLine),
			EndLine: github.Int(max(a.EndLine, a.StartLine)), AnnotationLevel: github.String(a.Level), Title: github.String(a.Title), Message: github.String(a.Message)})
	}
	return out
}

func toCheckRun(c *github.CheckRun) *CheckRun {
	return &CheckRun{ID: c.GetID(), Name: c.GetName(), HeadSHA: c.GetHeadSHA(), URL: c.GetHTMLURL(), Conclusion: c.GetConclusion(),
		Title: c.GetOutput().GetTitle(), Summary: c.GetOutput().GetSummary(), ExternalID: c.GetExternalID(), DetailsURL: c.GetDetailsURL(),
		App: c.GetApp().GetSlug()}
}

// CheckRuns lists the check runs named name on a commit (every one when
// name is "").
func (c *Client) CheckRuns(ctx context.Context, repo Repo, sha, name string) ([]*CheckRun, error) {
	var out []*CheckRun
	opts := &github.ListCheckRunsOptions{Filter: github.String("latest"), ListOptions: github.ListOptions{PerPage: 100}}
	if name != "" {
		opts.CheckName = github.String(name)
	}
	for {
		res, resp, err := c.gh.Checks.ListCheckRunsForRef(ctx, repo.Owner, repo.Name, sha, opts)
		if err != nil {
			return nil, apiError("listing check runs", err)
		}
		for _, r := range res.CheckRuns {
			out = append(out, toCheckRun(r))
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// CreateCheckRun creates a completed check run on a commit.
func (c *Client) CreateCheckRun(ctx context.Context, repo Repo, spec CheckSpec) (*CheckRun, error) {
	opts := github.CreateCheckRunOptions{Name: spec.Name, HeadSHA: spec.SHA, Status: github.String("completed"),
		Conclusion: github.String(spec.Conclusion), Output: checkOutput(spec.Output)}
	if spec.DetailsURL != "" {
		opts.DetailsURL = github.String(spec.DetailsURL)
	}
	if spec.ExternalID != "" {
		opts.ExternalID = github.String(spec.ExternalID)
	}
	run, _, err := c.gh.Checks.CreateCheckRun(ctx, repo.Owner, repo.Name, opts)
	if err != nil {
		return nil, apiError("creating a check run", err)
	}
	return toCheckRun(run), nil
}

// UpdateCheckRun updates a check run in place (annotations add to the
// ones it has).
func (c *Client) UpdateCheckRun(ctx context.Context, repo Repo, id int64, spec CheckSpec) (*CheckRun, error) {
	opts := github.UpdateCheckRunOptions{Name: spec.Name, Status: github.String("completed"), Conclusion: github.String(spec.Conclusion), Output: checkOutput(spec.Output)}
	if spec.DetailsURL != "" {
		opts.DetailsURL = github.String(spec.DetailsURL)
	}
	if spec.ExternalID != "" {
		opts.ExternalID = github.String(spec.ExternalID)
	}
	run, _, err := c.gh.Checks.UpdateCheckRun(ctx, repo.Owner, repo.Name, id, opts)
	if err != nil {
		return nil, apiError("updating a check run", err)
	}
	return toCheckRun(run), nil
}

// LabelledBy is who last added label to an issue or pull request, "" when
// it is not there (the last event of it removed it, or there is none).
func (c *Client) LabelledBy(ctx context.Context, repo Repo, pr int, label string) (string, error) {
	events, err := allPages("listing events", func(page github.ListOptions) ([]*github.IssueEvent, *github.Response, error) {
		return c.gh.Issues.ListIssueEvents(ctx, repo.Owner, repo.Name, pr, &page)
	})
	if err != nil {
		return "", err
	}
	by := ""
	for _, e := range events {
		if e.GetLabel().GetName() != label {
			continue
		}
		switch e.GetEvent() {
		case "labeled":
			by = e.GetActor().GetLogin()
		case "unlabeled":
			by = ""
		}
	}
	return by, nil
}

// Permission is a user's access to a repository: admin, maintain, write,
// triage, read or none.
func (c *Client) Permission(ctx context.Context, repo Repo, user string) (string, error) {
	p, _, err := c.gh.Repositories.GetPermissionLevel(ctx, repo.Owner, repo.Name, user)
	if err != nil {
		return "", apiError("reading a permission", err)
	}
	if rp := p.GetUser().GetRoleName(); rp == "maintain" || rp == "triage" {
		return rp, nil
	}
	return p.GetPermission(), nil
}
