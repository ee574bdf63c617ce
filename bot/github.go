package bot

import (
	"context"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/publish"
)

// The GitHub calls bot makes, each group declared for what uses it and
// implemented by *gh.Client (faked over HTTP in tests).
type (
	// Files is what reading a pull request's lock files and their root
	// modules needs.
	Files interface {
		ListFiles(ctx context.Context, repo gh.Repo, pr int) ([]gh.ChangedFile, error)
		// FileAt returns a file's content at a ref; found is false when
		// the file does not exist there.
		FileAt(ctx context.Context, repo gh.Repo, path, ref string) (content []byte, found bool, err error)
		// ListDir lists the files in a directory at a ref.
		ListDir(ctx context.Context, repo gh.Repo, dir, ref string) ([]gh.DirFile, error)
		// MergeBase is where head branched off base.
		MergeBase(ctx context.Context, repo gh.Repo, base, head string) (string, error)
	}
	// PullRequests finds the pull request a run belongs to.
	PullRequests interface {
		PullRequest(ctx context.Context, repo gh.Repo, pr int) (*gh.PullRequest, error)
		PullRequestForBranch(ctx context.Context, repo gh.Repo, owner, branch string) (int, error)
		// MergedPullRequest is the pull request whose merge made a commit.
		MergedPullRequest(ctx context.Context, repo gh.Repo, sha string) (int, error)
	}
	// Artifacts lists and locates a workflow run's artifacts.
	Artifacts interface {
		ListArtifacts(ctx context.Context, repo gh.Repo, runID int64) ([]gh.Artifact, error)
		// RunsForCommit lists a commit's workflow runs, newest first.
		RunsForCommit(ctx context.Context, repo gh.Repo, sha string) ([]gh.Run, error)
		// ArtifactURL is the short-lived download URL of an artifact's
		// zip, to be fetched without a token.
		ArtifactURL(ctx context.Context, repo gh.Repo, id int64) (string, error)
	}
	// GitHub is all of it, for the runners that do everything.
	GitHub interface {
		publish.Comments
		publish.Labels
		publish.Checks
		publish.Approvals
		Files
		PullRequests
		Artifacts
	}
)

// MaxJobSummary is the most a step's job summary may hold, in bytes: past
// it GitHub drops the whole summary.
const MaxJobSummary = 1 << 20

// ForOneRun is api for the run of one event: a pull request's comments
// are listed once and read from that list until the run writes one (see
// publish.RunComments).
func ForOneRun(api GitHub) GitHub {
	return oneRun{GitHub: api, comments: publish.NewRunComments(api)}
}

type oneRun struct {
	GitHub
	comments *publish.RunComments
}

func (o oneRun) ListComments(ctx context.Context, repo gh.Repo, pr int) ([]*gh.Comment, error) {
	return o.comments.ListComments(ctx, repo, pr)
}

func (o oneRun) CreateComment(ctx context.Context, repo gh.Repo, pr int, body string) (*gh.Comment, error) {
	return o.comments.CreateComment(ctx, repo, pr, body)
}

func (o oneRun) EditComment(ctx context.Context, repo gh.Repo, id int64, body string) (*gh.Comment, error) {
	return o.comments.EditComment(ctx, repo, id, body)
}

func (o oneRun) DeleteComment(ctx context.Context, repo gh.Repo, id int64) error {
	return o.comments.DeleteComment(ctx, repo, id)
}

func (o oneRun) MinimizeComment(ctx context.Context, nodeID string) error {
	return o.comments.MinimizeComment(ctx, nodeID)
}
