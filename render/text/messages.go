package text

import (
	"sync"

	"github.com/planpr/planpr/flavor"
	"github.com/planpr/planpr/render/internal/diff"
)

// messages are the fixed lines a plan's text is made of, in one tool's
// words, wrapped as that tool wraps them (its product name changes where
// a line breaks).
type messages struct {
	versionWarning, legend, actions, actionsErrored, outputsOnly string
	driftHeader, driftRefresh, driftOther, planFailed            string
	noChangesRO, noChangesDel, noChanges, compared               string
	driftApplyable, driftRefreshCmd, targeted                    string
	stateVersionWarning                                          string
	legendUpdate                                                 string
	flavor                                                       flavor.Flavor // whose words these are
	invoke                                                       string
}

// legendLine is a legend line in the flavor's words, "" for an action
// the flavor's legend leaves out (Terraform has none for forgetting).
func (m *messages) legendLine(a diff.Action, line string) string {
	switch {
	case a == diff.Update:
		return m.legendUpdate
	case m.flavor.Terraform() && (a == diff.Forget || a == diff.ForgetThenCreate || a == diff.CreateThenForget):
		return ""
	}
	return line
}

// say builds the messages in f's words. Each is written unwrapped, in
// OpenTofu's words, and wrapped once the words are f's.
func say(f flavor.Flavor) *messages {
	w := func(s string) string { return flavor.Wrap(f.Say(s)) }
	m := &messages{
		versionWarning: w("\nWarning: This plan was generated using a different version of OpenTofu, the diff presented here may be missing representations of recent features.\n"),
		legend:         w("\nOpenTofu used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:\n"),
		actions:        w("\nOpenTofu will perform the following actions:\n"),
		actionsErrored: w("\nOpenTofu planned the following actions, but then encountered a problem:\n"),
		outputsOnly:    w("\nYou can apply this plan to save these new output values to the OpenTofu state, without changing any real infrastructure.\n"),
		driftHeader:    "\nNote: Objects have changed outside of " + f.Product() + "\n\n" + w("OpenTofu detected the following changes made outside of OpenTofu since the last \"tofu apply\" which may have affected this plan:\n"),
		driftRefresh:   w("\n\nThis is a refresh-only plan, so OpenTofu will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the OpenTofu state without changing any remote objects.\n"),
		driftOther:     w("\n\nUnless you have made equivalent changes to your configuration, or ignored the relevant attributes using ignore_changes, the following plan may include actions to undo or respond to these changes.\n"),
		planFailed:     w("\nPlanning failed. OpenTofu encountered an error while generating this plan.\n\n"),
		noChangesRO:    w("\nNo changes. Your infrastructure still matches the configuration.\n\nOpenTofu has checked that the real remote objects still match the result of your most recent changes, and found no differences.\n"),
		noChangesDel:   w("\nNo changes. No objects need to be destroyed.\n\nEither you have not created any objects yet or the existing objects were already deleted outside of OpenTofu.\n"),
		noChanges:      w("\nNo changes. Your infrastructure matches the configuration.\n"),
		compared:       w("\nOpenTofu has compared your real infrastructure against your configuration and found no differences, so no changes are needed.\n"),
		driftApplyable: w("\nYour configuration already matches the changes detected above, so applying this plan will only update the state to include the changes detected above and won't change any real infrastructure.\n"),
		driftRefreshCmd: w("\nYour configuration already matches the changes detected above. If you'd like to update the OpenTofu state to match, create and apply a refresh-only plan:\n") +
			"  " + f.Command() + " apply -refresh-only\n",
		targeted:            w("\nNote: You used the -target option, so OpenTofu only checked resources matching those targets and may have skipped others. If you expected changes to appear, verify that the addresses passed to -target are correct.\n"),
		stateVersionWarning: w("\nWarning: This state was retrieved using a different version of OpenTofu, the state presented here maybe missing representations of recent features.\n"),
		legendUpdate:        "  ~ update in-place (current -> planned)",
		invoke:              f.Say("OpenTofu will invoke the following action(s):\n\n"),
	}
	m.flavor = f
	if f.Terraform() {
		m.legendUpdate = "  ~ update in-place"
	}
	return m
}

// saying holds each flavor's messages, wrapped when first asked for
// rather than when planpr starts (every run would pay for all three).
var saying = func() (s [flavor.Terraform + 1]func() *messages) {
	for f := range s {
		s[f] = sync.OnceValue(func() *messages { return say(flavor.Flavor(f)) })
	}
	return s
}()

// words are the messages in f's words.
func words(f flavor.Flavor) *messages { return saying[f]() }
