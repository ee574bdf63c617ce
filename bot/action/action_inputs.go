package action

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/planpr/planpr/bot"
	"path/filepath"
	"strings"

	"github.com/planpr/planpr/bot/publish"
	"github.com/planpr/planpr/flavor"
	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/lockdiff/verify"
	"github.com/planpr/planpr/render/report"
	"github.com/planpr/planpr/render/review"
)

// actionInputs are the Action's inputs (action.yml is their one list),
// read and checked once, before anything runs: every bad input is named,
// with what it accepts, in one error.
type actionInputs struct {
	Token, CommentAuthor string
	// WorkflowToken says the token is the workflow's own (action.yml
	// compares them): its comments are github-actions[bot]'s.
	WorkflowToken        bool
	Plan, UILog, Schemas string   // UILog: the ui-stream input (ui-log, its old name)
	Findings             string   // scanners' reports (SARIF), as globs
	LockFiles            string   // auto, off, or a glob
	Notices              []string // said in the log once the run starts
	Key, Title           string
	Mode, Flavor         string // checked here; a manifest may give them instead
	CommentMode          publish.CommentMode
	JobSummary, Labels   bool
	Verifier             *verify.Verifier // nil: lock hashes not checked
	Platforms            []string         // the team's declared platforms (OS_ARCH)
	Check                bool             // keep a check run per key
	CommentPer           string           // pull-request (one comment for every root) or root
	Roots                []string         // the roots expected: a missing one is a failed row
	Pack                 string           // a directory to write the artifact layout into, instead of commenting
	Reviewed             bool             // after a merge: the plan must be the one reviewed
	ReviewedPlan         string           // the reviewed plan JSON, to say what differs
	ReviewSecret         []byte           // shared by the review and the apply: authenticates the review
	FailOn               report.FailOn    // what makes the check fail
}

func readActionInputs(env Env) (*actionInputs, error) {
	in := &actionInputs{
		Token: env.input("github-token"), CommentAuthor: env.input("comment-author"),
		WorkflowToken: env.Getenv("PLANPR_WORKFLOW_TOKEN") == "true",
		Plan:          env.input("plan"), UILog: env.input("ui-stream"), Schemas: env.input("schemas"), Findings: env.input("findings"),
		Key: env.input("key"), Title: env.input("title"), Mode: env.input("mode"), Flavor: env.input("flavor"),
	}
	var problems []string
	switch old := env.input("ui-log"); {
	case old == "":
	case in.UILog == "":
		in.UILog = old
		in.Notices = append(in.Notices, "planpr: the ui-log input is now ui-stream (the UI stream, as the docs name it): rename it in the workflow; ui-log is still read")
	case old != in.UILog:
		problems = append(problems, "inputs ui-stream and ui-log (its old name) are both set, to different globs: keep ui-stream")
	}
	bad := func(err error) {
		if err != nil {
			problems = append(problems, err.Error())
		}
	}
	var err error
	in.CommentMode, err = publish.ParseCommentMode(env.input("comment-mode"))
	bad(err)
	in.JobSummary, err = env.boolInput("job-summary", true)
	bad(err)
	in.Labels, err = env.boolInput("labels", true)
	bad(err)
	if in.Mode != "" {
		_, err := review.ParseMode(in.Mode)
		bad(inputError(err))
	}
	if in.Flavor != "" {
		_, err := flavor.Parse(in.Flavor)
		bad(inputError(err))
	}
	switch lf := env.input("lock-files"); lf {
	case "", "true", "auto":
		in.LockFiles = "auto"
	case "false", "none", "off":
		in.LockFiles = "off"
	default:
		in.LockFiles = lf
	}
	in.Check, err = env.boolInput("check", true)
	bad(err)
	switch in.CommentPer = cmp.Or(env.input("comment-per"), commentPerPullRequest); in.CommentPer {
	case commentPerPullRequest, commentPerRoot:
	default:
		problems = append(problems, fmt.Sprintf("input comment-per %q: want pull-request or root", in.CommentPer))
	}
	if in.Key != "" {
		if err := bot.CheckKey(in.Key); err != nil {
			problems = append(problems, "input "+err.Error())
		}
	}
	in.Roots = strings.FieldsFunc(env.input("roots"), func(r rune) bool { return r == ',' || r == '\n' || r == ' ' })
	in.Pack = env.input("pack")
	switch r := env.input("reviewed"); r {
	case "", "off", "false":
	case "required", "true":
		in.Reviewed = true
	default:
		problems = append(problems, fmt.Sprintf("input reviewed %q: want required or off", r))
	}
	in.ReviewedPlan = env.input("reviewed-plan")
	in.ReviewSecret = []byte(env.input("review-secret"))
	if in.Reviewed && len(in.ReviewSecret) == 0 {
		problems = append(problems, "input reviewed: required needs review-secret (`review-secret: ${{ secrets.PLANPR_REVIEW_SECRET }}`, given to the review run too): without it a review cannot be told from a comment anyone with pull-requests: write could post")
	}
	in.FailOn, err = report.ParseFailOn(env.input("fail-on"))
	bad(inputError(err))
	in.Platforms, err = lockdiff.ParsePlatforms(env.input("platforms"))
	bad(inputError(err))
	in.Verifier, err = actionVerifier(env)
	bad(err)
	if in.Verifier != nil {
		in.Verifier.Platforms = in.Platforms
	}
	if in.Token == "" && in.CommentMode != publish.ModeOff && in.Pack == "" {
		problems = append(problems, "input github-token is empty: pass `github-token: ${{ github.token }}` (the default) or set comment-mode: off")
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}
	return in, nil
}

func inputError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("input %w", err)
}

// actionVerifier is the lock-hash verification the verify, registry and
// verify-hosts inputs ask for (on by default), its answers cached in the
// runner's tool cache.
func actionVerifier(env Env) (*verify.Verifier, error) {
	on, full, err := verify.ParseVerify(cmp.Or(env.input("verify"), "on"))
	if err != nil {
		return nil, fmt.Errorf("input %w", err)
	}
	if !on {
		return nil, nil
	}
	regs, err := verify.ParseRegistries(env.input("registry"))
	if err != nil {
		return nil, fmt.Errorf("input %w", err)
	}
	hosts, err := verify.ParseHosts(env.input("verify-hosts"))
	if err != nil {
		return nil, fmt.Errorf("input verify-hosts: %w", err)
	}
	cache := ""
	if dir := cmp.Or(env.Getenv("RUNNER_TOOL_CACHE"), env.Getenv("RUNNER_TEMP")); dir != "" {
		cache = filepath.Join(dir, "planpr-registry")
	}
	return &verify.Verifier{Registries: regs, AllowHosts: hosts, Full: full, CacheDir: cache}, nil
}

// The values of comment-per.
const (
	commentPerPullRequest = "pull-request"
	commentPerRoot        = "root"
)
