package bot

import (
	"context"

	"github.com/planpr/planpr/bot/gh"
)

// GitHub is every GitHub call planpr makes. It is implemented on go-github
// (gh.NewClient) and faked over HTTP in tests.
type GitHub interface {
	ListComments(ctx context.Context, repo gh.Repo, pr int) ([]*gh.Comment, error)
	CreateComment(ctx context.Context, repo gh.Repo, pr int, body string) (*gh.Comment, error)
	EditComment(ctx context.Context, repo gh.Repo, id int64, body string) (*gh.Comment, error)
	DeleteComment(ctx context.Context, repo gh.Repo, id int64) error
	MinimizeComment(ctx context.Context, nodeID string) error
	PullRequest(ctx context.Context, repo gh.Repo, pr int) (*gh.PullRequest, error)
	PullRequestForBranch(ctx context.Context, repo gh.Repo, owner, branch string) (int, error)
	ListFiles(ctx context.Context, repo gh.Repo, pr int) ([]gh.ChangedFile, error)
	// FileAt returns a file's content at a ref; found is false when the
	// file does not exist there.
	FileAt(ctx context.Context, repo gh.Repo, path, ref string) (content []byte, found bool, err error)
	// ListDir lists the files in a directory at a ref.
	ListDir(ctx context.Context, repo gh.Repo, dir, ref string) ([]gh.DirFile, error)
	ListArtifacts(ctx context.Context, repo gh.Repo, runID int64) ([]gh.Artifact, error)
	// ArtifactURL is the short-lived download URL of an artifact's zip,
	// to be fetched without a token.
	ArtifactURL(ctx context.Context, repo gh.Repo, id int64) (string, error)
	Labels(ctx context.Context, repo gh.Repo, pr int) ([]string, error)
	AddLabels(ctx context.Context, repo gh.Repo, pr int, labels []string) error
	RemoveLabel(ctx context.Context, repo gh.Repo, pr int, label string) error
}

// MaxJobSummary is the most a step's job summary may hold, in bytes: past
// it GitHub drops the whole summary.
const MaxJobSummary = 1 << 20
