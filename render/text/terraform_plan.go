package text

import (
	"fmt"
	"strings"

	"github.com/planpr/planpr/flavor"
	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
)

// What only Terraform's plans hold, shown as Terraform shows it whatever
// the flavor (OpenTofu writes none of it): changes deferred to a later
// plan, and the actions the plan invokes.

var deferredReasons = map[string]string{
	"instance_count_unknown":  "because the number of resource instances is unknown",
	"resource_config_unknown": "because the resource configuration is unknown",
	"provider_config_unknown": "because the provider configuration is unknown",
	"deferred_prereq":         "because a prerequisite for this resource is deferred",
	"absent_prereq":           "because a prerequisite for this resource has not yet been created",
	"excluded":                "because the resource was excluded",
	"not_included":            "because the resource was not included",
}

const (
	msgLegendBefore015  = "\nAn execution plan has been generated and is shown below.\nResource actions are indicated with the following symbols:\n"
	msgNoCurrentChanges = "\nNo current changes. This plan requires another plan to be applied first.\n\n"
	msgPartialPlan      = "\nNote: This is a partial plan, parts can only be known in the next plan / apply cycle.\n\n"
)

// deferredText is the partial-plan section: each deferred change with
// why it waits, or "" when there is none.
func deferredText(o review.PlanOptions, p *tofujson.Plan, config *review.ConfigIndex) (string, error) {
	if len(p.DeferredChanges) == 0 {
		return "", nil
	}
	var b strings.Builder
	b.WriteString(msgPartialPlan)
	for i := range p.DeferredChanges {
		d := &p.DeferredChanges[i]
		rc := &d.ResourceChange
		action, _ := tofujson.ParseActions(rc.Change.Actions)
		if action == diff.NoOp && !rc.Moved() && !rc.Importing() {
			continue
		}
		block, err := o.SchemaFor(rc, config)
		if err != nil {
			return "", err
		}
		why, ok := deferredReasons[d.Reason]
		if !ok {
			why = "for an unknown reason"
		}
		var rb Buf
		writeAll(&rb, "  # ", rc.Address, " was deferred\n  # (", why, ")\n")
		kind := "resource"
		if rc.Mode != "managed" {
			kind = "data"
		}
		writeAll(&rb, Symbol(action), " ", kind, " \"", rc.Type, "\" \"", rc.Name, "\" ")
		Node(&rb, diff.For(flavor.Terraform).ForResource(&rc.Change, block, diff.Always()), 0, Opts{ShowUnchanged: rc.Importing()})
		b.WriteString("\n" + rb.String() + "\n")
	}
	return b.String(), nil
}

// invokedActions is the text of the actions the command line invokes
// (those a resource's change triggers belong to that change), "" when
// there are none.
func invokedActions(p *tofujson.Plan) string {
	var out []string
	for i := range p.ActionInvocations {
		ai := &p.ActionInvocations[i]
		if ai.InvokeActionTrigger == nil {
			continue
		}
		header := "  # " + ai.Address + " will be invoked"
		if by := ai.InvokeActionTrigger.CallingResourceAddress; by != "" {
			header += " (called from " + by + ")"
		}
		out = append(out, header+"\n"+actionText(ai))
	}
	return strings.Join(out, "\n")
}

// actionText is one action's block, its configuration shown as it is set.
func actionText(ai *tofujson.ActionInvocation) string {
	var b Buf
	fmt.Fprintf(&b, "    # %s\n    action %q %q {\n", ai.Address, ai.Type, ai.Name)
	if obj, ok := ai.ConfigValues.(tofujson.Object); ok && len(obj) > 0 {
		c := &tofujson.Change{After: ai.ConfigValues, AfterUnknown: ai.ConfigUnknown, BeforeSensitive: false, AfterSensitive: ai.ConfigSensitive}
		block := review.InferBlock(&tofujson.ResourceChange{Change: *c}, nil)
		var cb Buf
		Node(&cb, diff.For(flavor.Terraform).ForResource(c, block, diff.Always()), 0, Opts{ShowUnchanged: true, HideSymbols: true})
		b.WriteString("        config " + strings.ReplaceAll(cb.String(), "\n", "\n        ") + "\n")
	}
	b.WriteString("    }\n")
	return b.String()
}
