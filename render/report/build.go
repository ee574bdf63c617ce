package report

import (
	"bytes"
	"context"
	"io"
	"strings"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/comment"
	"github.com/planpr/planpr/render/fingerprint"
	"github.com/planpr/planpr/render/marker"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/streamreport"
)

// Request is what a runner knows of one report: the root modules to
// read, how their plans were made, what the comment is keyed and titled,
// where it links, and which bodies its sinks need besides the comment.
// Build turns it into a Report; it is the only place a comment's options
// are made.
type Request struct {
	Plans []comment.CommentPlan
	// Plan says how the plans were made and holds the run's open files,
	// through which every read of the report goes (each file opened once).
	Plan review.PlanOptions
	// Marker is the comment's hidden first line: its Key names the report.
	Marker comment.Marker
	// Title is the comment's title, as given ("" leaves the comment
	// untitled, as `planpr render` does); Title(key) is the runners'.
	Title   string
	Version string
	Locks   []*lockdiff.FileDiff
	// RunURL links the run; SourceURL the repository's files at the
	// marker's commit (errors link their lines there); Check and CheckURL
	// name the key's check run and where it is shown.
	RunURL, SourceURL string
	Check, CheckURL   string
	// Missing are the roots expected and not reported (a failed matrix job).
	Missing []comment.MissingRoot
	// FullText says where the unshortened text is, when the comment is
	// shortened.
	FullText string
	// MaxSize bounds the comment, in characters (GitHub's limit when 0).
	MaxSize int
	// Fingerprint is the plans' fingerprint when the runner computed it
	// already (the Action, to gate an apply); else Build computes it,
	// unless NoFingerprint (`planpr render`, which publishes none).
	Fingerprint   string
	NoFingerprint bool
	// JobSummaryBytes, when set, asks for the job summary: the report
	// within that many bytes. CheckRoom, when set, asks for a check run's
	// body: the comment within that many characters. Summary asks for the
	// machine summary (as `render --format json` writes it).
	JobSummaryBytes int
	CheckRoom       int
	Summary         bool
}

// Report is one report, every body from one read of the plans.
type Report struct {
	// Comment is the body to post; JobSummary, Check and Summary are the
	// other bodies asked for ("" when not).
	Comment, JobSummary, Check, Summary string
	// Result says what the comment holds: counts, level, masked values.
	Result *comment.CommentResult
	// Marker is the comment's marker, fingerprint and all.
	Marker      comment.Marker
	Title       string
	Fingerprint string
	Locks       []*lockdiff.FileDiff
}

// Labels are the labels the report asks for on the pull request.
func (r *Report) Labels() []string { return Labels(r.Result) }

// Outputs are the Action's step outputs for the report; the sinks that
// post it fill the comment's and the check's.
func (r *Report) Outputs() map[string]string {
	out := Outputs(r.Result, r.Locks)
	out["fingerprint"] = r.Fingerprint
	out["summary"] = strings.TrimSpace(r.Summary)
	return out
}

// Build reads the request's plans once and writes every body asked for.
// A bad input is an error, and no body is made.
func Build(ctx context.Context, req Request) (*Report, error) {
	fp := req.Fingerprint
	if fp == "" && !req.NoFingerprint {
		var err error
		if fp, err = fingerprint.OfRoots(ctx, req.Plan.Files, Roots(req.Plans), fingerprint.Options{}); err != nil {
			return nil, err
		}
	}
	opts := comment.CommentOptions{
		PlanOptions: req.Plan, Marker: req.Marker, Title: req.Title, Version: req.Version, Locks: req.Locks,
		RunURL: req.RunURL, SourceURL: req.SourceURL, Check: req.Check, CheckURL: req.CheckURL,
		Missing: req.Missing, FullText: req.FullText, MaxSize: req.MaxSize, Fingerprint: fp,
	}
	var body, jobSummary, check, summary bytes.Buffer
	if req.Summary {
		opts.Summary = &summary
	}
	writers, all := []io.Writer{&body}, []comment.CommentOptions{opts}
	if req.JobSummaryBytes > 0 {
		full := opts
		full.Summary = nil
		full.MaxSize, full.MaxBytes = req.JobSummaryBytes, req.JobSummaryBytes-1 // and a newline
		full.FullText = "the run's plan files (`planpr render --format text PLAN` prints a plan whole)"
		writers, all = append(writers, &jobSummary), append(all, full)
	}
	if req.CheckRoom > 0 {
		c := opts
		c.Summary = nil
		c.MaxSize = req.CheckRoom
		writers, all = append(writers, &check), append(all, c)
	}
	results, err := comment.CommentsContext(ctx, writers, req.Plans, all)
	if err != nil {
		return nil, err
	}
	marker := req.Marker
	marker.Fingerprint = fp
	return &Report{Comment: body.String(), JobSummary: jobSummary.String(), Check: check.String(), Summary: summary.String(),
		Result: results[0], Marker: marker, Title: req.Title, Fingerprint: fp, Locks: req.Locks}, nil
}

// LocksRequest is the request of the lock comment (key "locks") a
// runner keeps beside its own: the lock files no root's comment holds,
// under marker, with base's version, links and open files.
func LocksRequest(base Request, marker comment.Marker, locks []*lockdiff.FileDiff) Request {
	return Request{Plan: base.Plan, Marker: marker, Title: Title(LocksKey), Version: base.Version, Locks: locks,
		RunURL: base.RunURL, NoFingerprint: true, CheckRoom: base.CheckRoom}
}

// BuildState writes the inventory of a state (`tofu show -json
// STATEFILE`) as a comment.
func BuildState(path string, req Request) (*Report, error) {
	var body bytes.Buffer
	res, err := comment.StateMarkdown(&body, path, comment.CommentOptions{PlanOptions: req.Plan, Marker: req.Marker,
		Title: req.Title, MaxSize: req.MaxSize, Version: req.Version})
	if err != nil {
		return nil, err
	}
	return &Report{Comment: body.String(), Result: res, Marker: req.Marker, Title: req.Title}, nil
}

// Roots are the plans as package fingerprint names them.
func Roots(plans []comment.CommentPlan) []fingerprint.Root {
	var roots []fingerprint.Root
	for _, p := range plans {
		roots = append(roots, fingerprint.Root{Name: p.Name, Path: p.Path})
	}
	return roots
}

// The comment's vocabulary, for the runners and sinks that read a report:
// they never import the comment itself.
type (
	// Result says what a comment holds: counts, level, masked values.
	Result = comment.CommentResult
	// MissingRoot is a root expected and not reported, a failed row.
	MissingRoot = comment.MissingRoot
	// Level is how far a comment was shortened to fit.
	Level = comment.Level
	// Annotation is a located problem a check run marks.
	Annotation = streamreport.Annotation
)

// The levels of a comment, and GitHub's limit on a comment's characters.
const (
	LevelFull        = comment.LevelFull
	LevelReduced     = comment.LevelReduced
	LevelSummary     = comment.LevelSummary
	GitHubMaxComment = comment.GitHubMaxComment
)

// The marker of planpr's comments (see package marker), as the runners
// and sinks find and stamp it.
type Marker = marker.Marker

var (
	MarkerField  = marker.Field
	ParseMarker  = marker.Parse
	CommentParts = marker.CommentParts
)
