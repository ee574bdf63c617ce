package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/planpr/planpr/lockdiff"
)

// Repo names a repository.
type Repo struct{ Owner, Name string }

func (r Repo) String() string { return r.Owner + "/" + r.Name }

// ParseRepo reads "owner/name".
func ParseRepo(s string) (Repo, error) {
	owner, name, ok := strings.Cut(s, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return Repo{}, fmt.Errorf("%q is not a repository (want OWNER/NAME)", s)
	}
	return Repo{owner, name}, nil
}

// Comment is an issue or pull-request comment.
type Comment struct {
	ID        int64
	NodeID    string
	Body      string
	User      string
	CreatedAt time.Time
	URL       string
}

// PullRequest is what planpr needs of a pull request.
type PullRequest struct {
	Number           int
	BaseSHA, HeadSHA string
	HeadRef          string
	HeadRepo         string // OWNER/NAME of the head branch's repository
}

// ChangedFile is one file of a pull request.
type ChangedFile struct {
	Name, Status, PreviousName string
}

// DirFile is a file in a directory listing.
type DirFile struct {
	Name string
	Size int64
}

// MaxFileFetch is the largest file planpr fetches from a repository: lock
// files and configuration larger than this are refused unread (lockdiff
// refuses them anyway).
const MaxFileFetch = lockdiff.MaxSourceSize

// ErrFileTooLarge is a file over MaxFileFetch.
var ErrFileTooLarge = fmt.Errorf("over %d MiB: not fetched", MaxFileFetch>>20)

// Artifact is a workflow run's artifact.
type Artifact struct {
	ID      int64
	Name    string
	Size    int64
	Expired bool
}

// GitHub is every GitHub call planpr makes. It is implemented on go-github
// (NewClient) and faked over HTTP in tests.
type GitHub interface {
	ListComments(ctx context.Context, repo Repo, pr int) ([]*Comment, error)
	CreateComment(ctx context.Context, repo Repo, pr int, body string) (*Comment, error)
	EditComment(ctx context.Context, repo Repo, id int64, body string) (*Comment, error)
	DeleteComment(ctx context.Context, repo Repo, id int64) error
	MinimizeComment(ctx context.Context, nodeID string) error
	PullRequest(ctx context.Context, repo Repo, pr int) (*PullRequest, error)
	PullRequestForBranch(ctx context.Context, repo Repo, owner, branch string) (int, error)
	ListFiles(ctx context.Context, repo Repo, pr int) ([]ChangedFile, error)
	// FileAt returns a file's content at a ref; found is false when the
	// file does not exist there.
	FileAt(ctx context.Context, repo Repo, path, ref string) (content []byte, found bool, err error)
	// ListDir lists the files in a directory at a ref.
	ListDir(ctx context.Context, repo Repo, dir, ref string) ([]DirFile, error)
	ListArtifacts(ctx context.Context, repo Repo, runID int64) ([]Artifact, error)
	// ArtifactURL is the short-lived download URL of an artifact's zip,
	// to be fetched without a token.
	ArtifactURL(ctx context.Context, repo Repo, id int64) (string, error)
	Labels(ctx context.Context, repo Repo, pr int) ([]string, error)
	AddLabels(ctx context.Context, repo Repo, pr int, labels []string) error
	RemoveLabel(ctx context.Context, repo Repo, pr int, label string) error
}

// MaxJobSummary is the most a step's job summary may hold, in bytes: past
// it GitHub drops the whole summary.
const MaxJobSummary = 1 << 20

// ErrReadOnly means the token may read but not write, as with the token of
// a workflow run for a pull request from a fork.
var ErrReadOnly = errors.New("the token cannot write to this repository (Resource not accessible by integration)")

// ErrTooLong means a comment body was refused before sending: GitHub
// rejects bodies over 65,536 characters.
var ErrTooLong = errors.New("comment body is over GitHub's 65,536-character limit")
