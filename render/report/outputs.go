package report

import (
	"maps"
	"strconv"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/comment"
)

// Labels planpr manages on a pull request.
const (
	LabelDestroy   = "planpr:destroy"
	LabelLockAlert = "planpr:lock-alert"
	// LabelDrift marks the issue planpr keeps for a root's drift.
	LabelDrift = "planpr:drift"
)

// Labels are the labels a comment's facts ask for.
func Labels(res *comment.CommentResult) []string {
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
func Outputs(res *comment.CommentResult, locks []*lockdiff.FileDiff) map[string]string {
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

// MergeOutputs are the step outputs of a run that kept several comments
// (comment-per: root): the counts summed, has-changes and errored when
// any says so, the conclusion a failure when any is; the comment's and
// the check's links, the fingerprint and the machine summary are the
// first comment's. One comment's are its own.
func MergeOutputs(each []map[string]string) map[string]string {
	if len(each) == 1 {
		return each[0]
	}
	out := maps.Clone(each[0])
	for _, o := range each[1:] {
		for _, k := range []string{"add", "change", "destroy", "lock-alerts"} {
			a, _ := strconv.Atoi(out[k])
			b, _ := strconv.Atoi(o[k])
			out[k] = strconv.Itoa(a + b)
		}
		for _, k := range []string{"has-changes", "errored"} {
			if o[k] == "true" {
				out[k] = "true"
			}
		}
		if o["conclusion"] == "failure" {
			out["conclusion"] = "failure"
		}
	}
	return out
}
