package render

import (
	"fmt"
	"strings"

	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/tofujson"
)

// maxLaterItems bounds each list laterParts writes.
const maxLaterItems = 100

// laterParts lists what only Terraform's plans hold: the changes deferred
// to a later plan (with why), and the actions the plan invokes. Both are
// part of what applying the plan means, so a reviewer sees them; the
// summary level keeps their counts.
func laterParts(p *tofujson.Plan, level Level, m *mask.Masker) string {
	var b strings.Builder
	laterList(&b, "Deferred to a later plan", len(p.DeferredChanges), level, func(i int) string {
		d := p.DeferredChanges[i]
		return safeCode(m, d.ResourceChange.Address) + " — " + safeText(m, strings.ReplaceAll(d.Reason, "_", " "))
	})
	laterList(&b, "Actions to invoke", len(p.ActionInvocations), level, func(i int) string {
		ai := p.ActionInvocations[i]
		line := safeCode(m, ai.Address)
		if t := ai.LifecycleActionTrigger; t != nil {
			line += " — " + safeText(m, strings.ReplaceAll(t.ActionTriggerEvent, "_", " ")) + " of " + safeCode(m, t.TriggeringResourceAddress)
		}
		return line
	})
	return b.String()
}

// laterList writes a heading with n, then (below the summary level) up to
// maxLaterItems items.
func laterList(b *strings.Builder, heading string, n int, level Level, item func(i int) string) {
	if n == 0 {
		return
	}
	fmt.Fprintf(b, "#### %s (%d)\n\n", heading, n)
	if level == LevelSummary {
		return
	}
	for i := range min(n, maxLaterItems) {
		b.WriteString("- " + item(i) + "\n")
	}
	if n > maxLaterItems {
		fmt.Fprintf(b, "- … and %d more\n", n-maxLaterItems)
	}
	b.WriteString("\n")
}
