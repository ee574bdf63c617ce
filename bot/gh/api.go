// Package gh is planpr's go-github adapter: the client for the REST and
// GraphQL calls planpr makes, with retries that honour GitHub's rate
// limits, and the few types those calls return. The interfaces bot needs
// of it are declared where they are used. It imports nothing of the
// project.
package gh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"
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
	Open             bool   // not closed nor merged
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
const MaxFileFetch = 8 << 20 // lockdiff.MaxSourceSize

// ErrFileTooLarge is a file over MaxFileFetch.
var ErrFileTooLarge = fmt.Errorf("over %d MiB: not fetched", MaxFileFetch>>20)

// Artifact is a workflow run's artifact.
type Artifact struct {
	ID      int64
	Name    string
	Size    int64
	Expired bool
}

// ErrGone means the comment was deleted meanwhile: another run racing
// this one removed it as a duplicate.
var ErrGone = errors.New("the comment is gone (deleted by another run)")

// ErrReadOnly means the token may read but not write, as with the token of
// a workflow run for a pull request from a fork.
var ErrReadOnly = errors.New("the token cannot write to this repository (Resource not accessible by integration)")

// ErrTooLong means a comment body was refused before sending: GitHub
// rejects bodies over 65,536 characters.
var ErrTooLong = errors.New("comment body is over GitHub's 65,536-character limit")

// AnswerLost reports whether err means a request's answer never came
// whole — the connection dropped, or was cut in the middle of the answer —
// so that GitHub may or may not have done it. A write that failed so is
// looked for before it is made again. GitHub's refusals (a status) and an
// ended context are not lost answers.
func AnswerLost(err error) bool {
	var se *StatusError
	if err == nil || errors.As(err, &se) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var ne net.Error // *url.Error and *net.OpError among them
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &ne)
}
