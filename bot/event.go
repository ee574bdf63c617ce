package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"time"

	"github.com/planpr/planpr/bot/gh"
	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/render/report"
)

// Event is the part of a webhook / workflow event payload planpr reads.
type Event struct {
	Action      string `json:"action"`
	Number      int    `json:"number"`
	PullRequest *struct {
		Number    int    `json:"number"`
		UpdatedAt string `json:"updated_at"`
		Head      struct {
			SHA string `json:"sha"`
			Ref string `json:"ref"`
		} `json:"head"`
		Base struct {
			SHA string `json:"sha"`
		} `json:"base"`
	} `json:"pull_request"`
	// MergeGroup is a merge queue's group (merge_group): its head commit
	// is what the queue would merge; its ref names the last pull request
	// of the group (gh-readonly-queue/BASE/pr-N-SHA).
	MergeGroup *struct {
		HeadSHA string `json:"head_sha"`
		HeadRef string `json:"head_ref"`
		BaseSHA string `json:"base_sha"`
		BaseRef string `json:"base_ref"`
	} `json:"merge_group"`
	WorkflowRun *struct {
		ID             int64  `json:"id"`
		Name           string `json:"name"`
		HeadSHA        string `json:"head_sha"`
		HeadBranch     string `json:"head_branch"`
		RunStartedAt   string `json:"run_started_at"`
		Event          string `json:"event"`
		Conclusion     string `json:"conclusion"`
		HTMLURL        string `json:"html_url"`
		HeadRepository struct {
			FullName string `json:"full_name"`
			Owner    struct {
				Login string `json:"login"`
			} `json:"owner"`
		} `json:"head_repository"`
		PullRequests []struct {
			Number int `json:"number"`
			Head   struct {
				SHA string `json:"sha"`
			} `json:"head"`
			Base struct {
				SHA string `json:"sha"`
			} `json:"base"`
		} `json:"pull_requests"`
	} `json:"workflow_run"`
	Repository struct {
		FullName      string `json:"full_name"`
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
	// Label is the label a labeled or unlabeled event is about.
	Label *struct {
		Name string `json:"name"`
	} `json:"label"`
	Installation *struct {
		ID int64 `json:"id"`
	} `json:"installation"`
}

// ReadEvent decodes an event payload file.
func ReadEvent(path string) (*Event, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the event: %w", err)
	}
	var e Event
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("%s: not an event payload: %w", path, err)
	}
	return &e, nil
}

// Manifest is planpr.json, written next to the plans by the workflow that
// made them (the fork-safe pattern: it travels in the artifact).
type Manifest struct {
	PR   int    `json:"pr"`
	Key  string `json:"key"`
	Mode string `json:"mode"`
	SHA  string `json:"sha"`
	// Flavor is terraform or opentofu when the plans do not tell.
	Flavor string `json:"flavor"`
	// Root is the root module's directory in the repository (envs/prod):
	// the App then names the plan as the Action does and reviews that
	// directory's lock file in the same comment.
	Root string `json:"root"`
}

// ShortSHA is a commit as people read it: its first seven digits.
func ShortSHA(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}

// UnixTime reads one of GitHub's timestamps as the comments' order; 0 when
// absent.
func UnixTime(s string) int64 {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return 0
	}
	return t.Unix()
}

// ApprovalLabelledAt reports whether ev is the approval label's own
// labeled event, sent while sha was the pull request's head: the one
// moment an approval binds to a commit.
func ApprovalLabelledAt(ev *Event, sha string) bool {
	return ev.Action == "labeled" && ev.Label != nil && ev.Label.Name == report.LabelDestroyApproved &&
		ev.PullRequest != nil && sha != "" && ev.PullRequest.Head.SHA == sha
}

// queuedPR is the pull request a merge group's ref names.
var queuedPR = regexp.MustCompile(`/pr-([0-9]+)-[0-9a-f]+$`)

// QueuedPR is the pull request of a merge group (its ref's pr-N), 0 when
// its ref names none.
func (e *Event) QueuedPR() int {
	if e.MergeGroup == nil {
		return 0
	}
	if m := queuedPR.FindStringSubmatch(e.MergeGroup.HeadRef); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// JudgeAgain answers the approval label added to or removed from a pull
// request: planpr's check runs (app's) on the commit that was the head
// when the label's event came — never a head read later: a push after
// the label is not approved — are judged again by failOn with the
// approval as the labels now say. It says how many it judged.
func JudgeAgain(ctx context.Context, api interface {
	publish.Labels
	publish.Checks
	publish.Approvals
}, repo gh.Repo, ev *Event, app string, failOn report.FailOn) (int, error) {
	pr, sha := ev.PullRequest.Number, ev.PullRequest.Head.SHA
	labels, err := api.Labels(ctx, repo, pr)
	if err != nil {
		return 0, err
	}
	return publish.Rejudge(ctx, api, repo, sha, app, pr, failOn, publish.ReadApproval(ctx, api, repo, pr, labels), ApprovalLabelledAt(ev, sha))
}
