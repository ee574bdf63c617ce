package report

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/comment"
	"github.com/planpr/planpr/render/findings"
)

// The conditions a team can say must stop a merge (the Action's fail-on,
// the App's PLANPR_FAIL_ON and .github/planpr.yml's fail_on).
const (
	FailErrored   = "errored"    // a plan, apply or test failed
	FailLockAlert = "lock-alert" // a lock-file alert
	FailDestroy   = "destroy"    // something is destroyed (not replaced)
	FailReplace   = "replace"    // something is replaced
	FailDrift     = "drift"      // something changed outside the tool
	FailPolicy    = "policy"     // a policy engine denied the plan
	// FailFinding, followed by a severity (finding:high), fails on a
	// scanner's finding at or above it on a resource the plan changes.
	FailFinding = "finding:"
	// FailCost, followed by +N% or +AMOUNT (cost:+10%, cost:+500), fails
	// when Infracost says a root's monthly cost grows by more.
	FailCost = "cost:"
)

// FailConditions are every condition fail-on may name, in its order.
var FailConditions = []string{FailErrored, FailLockAlert, FailDestroy, FailReplace, FailDrift, FailPolicy}

// DefaultFailOn is what stops a merge unless the team says otherwise.
const DefaultFailOn = "errored,lock-alert"

// LabelDestroyApproved, added by someone who may write to the repository,
// approves the destroys and replacements fail-on names.
const LabelDestroyApproved = "planpr:destroy-approved"

// FailOn is the set of conditions that make a check fail.
type FailOn []string

// ParseFailOn reads fail-on: conditions separated by commas, spaces or
// lines; "" is DefaultFailOn, "none" nothing.
func ParseFailOn(s string) (FailOn, error) {
	if strings.TrimSpace(s) == "" {
		s = DefaultFailOn
	}
	var out FailOn
	for _, c := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' || r == '\r' }) {
		switch {
		case c == "none":
		case slices.Contains(FailConditions, c):
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		case strings.HasPrefix(c, FailCost):
			if _, _, err := parseCostLimit(strings.TrimPrefix(c, FailCost)); err != nil {
				return nil, fmt.Errorf("fail-on %q: %v", c, err)
			}
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		case strings.HasPrefix(c, FailFinding):
			sev, err := findings.ParseSeverity(strings.TrimPrefix(c, FailFinding))
			if err != nil {
				return nil, fmt.Errorf("fail-on %q: %v", c, err)
			}
			if c = FailFinding + sev.String(); !slices.Contains(out, c) {
				out = append(out, c)
			}
		default:
			return nil, fmt.Errorf("fail-on %q: want a list of %s, finding:SEVERITY (critical, high, medium, low, info), cost:+N%% or cost:+AMOUNT, or none", c, strings.Join(FailConditions, ", "))
		}
	}
	return out, nil
}

// Approval is the approval label as the runner found it.
type Approval struct {
	By string // who added it, when they may write to the repository
	// Refused names who added it without write access ("" when the label
	// is absent or approved); Unknown says their access could not be read.
	Refused string
	Unknown bool
	// Stale names who added it while another commit was the head: an
	// approval is for the commit it was given at, so it approves nothing
	// here.
	Stale string
}

// Verdict is a check's conclusion and why, in words.
type Verdict struct {
	Conclusion string   `json:"conclusion"` // success or failure
	Why        []string `json:"why"`
	ApprovedBy string   `json:"approved_by,omitempty"`
}

// Facts are what a verdict is judged on: kept in the check run, so that
// an approval label added later is judged without reading the plans again.
type Facts struct {
	Errored                        bool
	LockAlerts, Destroys, Replaces int
	Drift                          int
	// Findings counts the scanners' findings on the changes, by
	// severity (findings.Severity).
	Findings [findings.Critical + 1]int
	// CostUp and CostUpPct are the largest monthly increase of a root
	// Infracost priced, as an amount and as a percentage of its cost
	// before ("" when none was priced, or there was no cost before).
	CostUp, CostUpPct string
	// Denied counts the policy engines' denials.
	Denied int
	// PR is the pull request the facts were judged for; Failed says its
	// own verdict here was a failure.
	PR     int
	Failed bool
	// Approval is who approved at this very commit: recorded when the
	// approval label's event came while this commit was the head.
	Approval string
	// Failing are the other open pull requests with this head commit whose
	// verdict here is a failure: a check belongs to a commit, a verdict to
	// a pull request, and one never turns another's failure into success.
	Failing []int
}

// maxFailing bounds the other pull requests a check remembers.
const maxFailing = 8

// parseCostLimit reads what follows cost: in fail-on: +N% (pct) or
// +AMOUNT, a decimal.
func parseCostLimit(s string) (limit *big.Rat, pct bool, err error) {
	v, ok := strings.CutPrefix(s, "+")
	if v, pct = strings.CutSuffix(v, "%"); !ok || v == "" || len(v) > 20 {
		return nil, false, fmt.Errorf("want +N%% (say +10%%) or +AMOUNT (say +500), the growth of a root's monthly cost that fails the check")
	}
	limit, ok = findings.ParseAmount(v)
	if !ok || limit.Sign() < 0 {
		return nil, false, fmt.Errorf("%q is not an amount", v)
	}
	return limit, pct, nil
}

// FactsOf are a report's facts.
func FactsOf(res *comment.CommentResult, locks []*lockdiff.FileDiff) Facts {
	return Facts{Errored: res.Errored, LockAlerts: LockAlerts(locks), Destroys: res.Counts.Destroy - res.Replace, Replaces: res.Replace, Drift: res.Drift, Findings: res.Findings,
		CostUp: res.CostUp, CostUpPct: res.CostUpPct, Denied: res.Denied}
}

// String writes facts for a check run's external_id.
func (f Facts) String() string {
	e := 0
	if f.Errored {
		e = 1
	}
	s := fmt.Sprintf("planpr/1 e=%d l=%d d=%d r=%d f=%d", e, f.LockAlerts, f.Destroys, f.Replaces, f.Drift)
	if f.PR != 0 {
		s += fmt.Sprintf(" pr=%d", f.PR)
		if f.Failed {
			s += " v=F"
		}
	}
	if f.Approval != "" {
		s += " a=" + f.Approval
	}
	if f.Findings != ([findings.Critical + 1]int{}) {
		n := make([]string, len(f.Findings))
		for i, c := range f.Findings {
			n[i] = strconv.Itoa(c)
		}
		s += " x=" + strings.Join(n, ",") // info to critical
	}
	if f.CostUp != "" {
		s += " c=" + f.CostUp
	}
	if f.Denied > 0 {
		s += " pd=" + strconv.Itoa(f.Denied)
	}
	if f.CostUpPct != "" {
		s += " cp=" + f.CostUpPct
	}
	if len(f.Failing) > 0 {
		prs := make([]string, len(f.Failing))
		for i, n := range f.Failing {
			prs[i] = strconv.Itoa(n)
		}
		s += " o=" + strings.Join(prs, ",")
	}
	return s
}

// ParseFacts reads what Facts.String wrote; false for anything else.
func ParseFacts(s string) (Facts, bool) {
	var f Facts
	fields := strings.Fields(s)
	if len(fields) < 6 || fields[0] != "planpr/1" {
		return Facts{}, false
	}
	var e int
	n, err := fmt.Sscanf(strings.Join(fields[:6], " "), "planpr/1 e=%d l=%d d=%d r=%d f=%d", &e, &f.LockAlerts, &f.Destroys, &f.Replaces, &f.Drift)
	if err != nil || n != 5 {
		return Facts{}, false
	}
	f.Errored = e == 1
	for _, field := range fields[6:] {
		k, v, _ := strings.Cut(field, "=")
		switch k {
		case "pr":
			f.PR, _ = strconv.Atoi(v)
		case "v":
			f.Failed = v == "F"
		case "a":
			if loginPattern.MatchString(v) {
				f.Approval = v
			}
		case "pd":
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				f.Denied = n
			}
		case "c", "cp":
			if _, ok := findings.ParseAmount(v); ok || k == "cp" && v == comment.CostFromNothing {
				if k == "c" {
					f.CostUp = v
				} else {
					f.CostUpPct = v
				}
			}
		case "x":
			for i, p := range strings.Split(v, ",") {
				if n, err := strconv.Atoi(p); err == nil && n >= 0 && i < len(f.Findings) {
					f.Findings[i] = n
				}
			}
		case "o":
			for _, p := range strings.Split(v, ",") {
				if n, err := strconv.Atoi(p); err == nil && n > 0 && len(f.Failing) < maxFailing {
					f.Failing = append(f.Failing, n)
				}
			}
		}
	}
	return f, true
}

// loginPattern is a GitHub login (a bot's with its [bot]).
var loginPattern = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$`)

// OtherFailing are the pull requests other than pr that a check's facts
// say fail on its commit: its recorded others, and the one it was last
// judged for if that one failed; open says which are still open (a
// closed pull request's verdict no longer holds).
func OtherFailing(prior Facts, pr int, open func(int) bool) []int {
	var out []int
	add := func(n int) {
		if n != 0 && n != pr && !slices.Contains(out, n) && len(out) < maxFailing && open(n) {
			out = append(out, n)
		}
	}
	if prior.Failed {
		add(prior.PR)
	}
	for _, n := range prior.Failing {
		add(n)
	}
	return out
}

// Judge is the check's verdict on a report (see JudgeFacts).
func Judge(res *comment.CommentResult, locks []*lockdiff.FileDiff, failOn FailOn, approval Approval) Verdict {
	return JudgeFacts(FactsOf(res, locks), failOn, approval)
}

// JudgeFacts is the check's verdict: failure for each condition of
// fail-on the facts meet (destroys and replacements unless approved),
// failure too when planpr could not tell (the approval's author's access
// could not be read: a gate that cannot tell never passes, and GitHub's
// branch protection takes neutral as passing), success otherwise.
func JudgeFacts(f Facts, failOn FailOn, approval Approval) Verdict {
	on := func(c string) bool { return slices.Contains(failOn, c) }
	var failed, approved []string
	if on(FailErrored) && f.Errored {
		failed = append(failed, "the run failed (errored is in fail-on)")
	}
	if n := f.LockAlerts; on(FailLockAlert) && n > 0 {
		failed = append(failed, fmt.Sprintf("%s (lock-alert is in fail-on)", count(n, "lock-file alert", "lock-file alerts")))
	}
	for _, n := range f.Failing {
		failed = append(failed, fmt.Sprintf("pull request #%d, whose head is this same commit, fails planpr's gate here: a check belongs to a commit, so it passes only when every open pull request with this head passes", n))
	}
	for _, c := range failOn {
		sev, err := findings.ParseSeverity(strings.TrimPrefix(c, FailFinding))
		if !strings.HasPrefix(c, FailFinding) || err != nil {
			continue
		}
		n := 0
		for s := sev; s <= findings.Critical; s++ {
			n += f.Findings[s]
		}
		if n > 0 {
			failed = append(failed, fmt.Sprintf("%s at %s or above on the resources this plan changes (%s is in fail-on)", count(n, "scanner finding", "scanner findings"), sev, c))
		}
	}
	for _, c := range failOn {
		limit, pct, err := parseCostLimit(strings.TrimPrefix(c, FailCost))
		if !strings.HasPrefix(c, FailCost) || err != nil {
			continue
		}
		got := f.CostUp
		if pct {
			got = f.CostUpPct
		}
		if pct && got == comment.CostFromNothing {
			failed = append(failed, fmt.Sprintf("a root that cost nothing a month now costs %s (%s is in fail-on)", f.CostUp, c))
			continue
		}
		if v, ok := findings.ParseAmount(got); ok && v.Cmp(limit) > 0 {
			unit := ""
			if pct {
				unit = "%"
			}
			failed = append(failed, fmt.Sprintf("a root's monthly cost grows by %s%s, over %s (%s is in fail-on)", got, unit, strings.TrimPrefix(c, FailCost), c))
		}
	}
	if on(FailPolicy) && f.Denied > 0 {
		failed = append(failed, fmt.Sprintf("%s by the policy engine (policy is in fail-on)", count(f.Denied, "denial", "denials")))
	}
	if on(FailDrift) && f.Drift > 0 {
		failed = append(failed, fmt.Sprintf("%s changed outside the tool (drift is in fail-on)", count(f.Drift, "resource", "resources")))
	}
	var risky []string
	if on(FailDestroy) && f.Destroys > 0 {
		risky = append(risky, fmt.Sprintf("%s destroyed (destroy is in fail-on)", count(f.Destroys, "resource", "resources")))
	}
	if on(FailReplace) && f.Replaces > 0 {
		risky = append(risky, fmt.Sprintf("%s replaced (replace is in fail-on)", count(f.Replaces, "resource", "resources")))
	}
	// The destroys and the replacements are one reason, and one approval
	// answers them: its sentence is said once.
	r := strings.Join(risky, " and ")
	switch {
	case len(risky) == 0:
	case approval.By != "":
		approved = append(approved, r+", approved by @"+approval.By+" with the "+LabelDestroyApproved+" label")
	case approval.Unknown:
		failed = append(failed, r+"; the "+LabelDestroyApproved+" label is there, but planpr could not read who added it or whether they may write to the repository, so it does not approve (run the check again, or remove and add the label)")
	case approval.Refused != "":
		failed = append(failed, r+"; the "+LabelDestroyApproved+" label was added by @"+approval.Refused+", who cannot write to the repository, so it does not approve")
	case approval.Stale != "":
		failed = append(failed, r+"; the "+LabelDestroyApproved+" label was added by @"+approval.Stale+" at an earlier commit, and an approval is for the commit it was given at: remove the label and add it again to approve what this commit does")
	default:
		failed = append(failed, r+"; a maintainer can approve with the "+LabelDestroyApproved+" label")
	}
	v := Verdict{Conclusion: "success", Why: []string{}}
	switch {
	case len(failed) > 0:
		v.Conclusion, v.Why = "failure", failed
	default:
		v.Why = approved
		if len(v.Why) == 0 {
			v.Why = []string{"nothing in fail-on (" + strings.Join(orNone(failOn), ", ") + ") happened"}
		}
	}
	if len(approved) > 0 {
		v.ApprovedBy = approval.By
		if v.Conclusion != "success" {
			v.Why = append(v.Why, approved...)
		}
	}
	return v
}

func orNone(f FailOn) []string {
	if len(f) == 0 {
		return []string{"none"}
	}
	return f
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// CheckName is the check run of a key: "planpr" for a single root,
// "planpr / KEY" otherwise — what branch protection requires by name.
func CheckName(key string) string {
	switch key {
	case "", ".", PullRequestKey:
		return "planpr"
	}
	return "planpr / " + key
}

// WithCheck adds a check's verdict to the plans' machine summary, as its
// last member "check": its name, conclusion and why. The Action's summary
// output and dry-run's --summary say it so.
func WithCheck(summary, name string, v Verdict) string {
	body, ok := strings.CutSuffix(strings.TrimSpace(summary), "\n}")
	if !ok {
		return summary
	}
	check, err := json.MarshalIndent(struct {
		Name string `json:"name"`
		Verdict
	}{name, v}, "  ", "  ")
	if err != nil {
		return summary
	}
	return body + ",\n  \"check\": " + string(check) + "\n}"
}
