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
	if n := len(p.DeferredChanges); n > 0 {
		fmt.Fprintf(&b, "#### Deferred to a later plan (%d)\n\n", n)
		if level < LevelSummary {
			for i, d := range p.DeferredChanges {
				if i == maxLaterItems {
					fmt.Fprintf(&b, "- … and %d more\n", n-i)
					break
				}
				fmt.Fprintf(&b, "- %s — %s\n", safeCode(m, d.ResourceChange.Address), safeText(m, strings.ReplaceAll(d.Reason, "_", " ")))
			}
			b.WriteString("\n")
		}
	}
	if n := len(p.ActionInvocations); n > 0 {
		fmt.Fprintf(&b, "#### Actions to invoke (%d)\n\n", n)
		if level < LevelSummary {
			for i, ai := range p.ActionInvocations {
				if i == maxLaterItems {
					fmt.Fprintf(&b, "- … and %d more\n", n-i)
					break
				}
				line := "- " + safeCode(m, ai.Address)
				if t := ai.LifecycleActionTrigger; t != nil {
					line += " — " + safeText(m, strings.ReplaceAll(t.ActionTriggerEvent, "_", " ")) + " of " + safeCode(m, t.TriggeringResourceAddress)
				}
				b.WriteString(line + "\n")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}
