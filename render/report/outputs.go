package report

import (
	"strconv"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render"
)

// Labels planpr manages on a pull request.
const (
	LabelDestroy   = "planpr:destroy"
	LabelLockAlert = "planpr:lock-alert"
)

// Labels are the labels a comment's facts ask for.
func Labels(res *render.CommentResult) []string {
	var labels []string
	if res.Counts.Destroy > 0 {
		labels = append(labels, LabelDestroy)
	}
	if res.LockAlert {
		labels = append(labels, LabelLockAlert)
	}
	return labels
}

// Outputs are the Action's step outputs for a comment; the sinks that post
// it fill comment-id and comment-url, check-url and conclusion.
func Outputs(res *render.CommentResult, locks []*lockdiff.FileDiff) map[string]string {
	return map[string]string{
		"add": strconv.Itoa(res.Counts.Add), "change": strconv.Itoa(res.Counts.Change), "destroy": strconv.Itoa(res.Counts.Destroy),
		"has-changes": strconv.FormatBool(res.HasChange), "lock-alerts": strconv.Itoa(LockAlerts(locks)),
		"errored":    strconv.FormatBool(res.Errored),
		"comment-id": "", "comment-url": "", "check-url": "", "conclusion": "", "fingerprint": "",
	}
}

// LockAlerts counts the alerts of lock files.
func LockAlerts(files []*lockdiff.FileDiff) int {
	n := 0
	for _, fd := range files {
		for _, f := range fd.AllFindings() {
			if f.Severity == lockdiff.Alert {
				n++
			}
		}
	}
	return n
}
