// Package later writes what only Terraform's plans hold and a reviewer
// must see: the changes deferred to a later plan (with why), and the
// actions the plan invokes.
package later

import (
	"fmt"
	"strings"

	"github.com/planpr/planpr/render/internal/safe"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/tofujson"
)

// maxLaterItems bounds each list laterParts writes.
const maxLaterItems = 100

// Parts lists the deferred changes and the invoked actions of p: both
// are part of what applying the plan means, so a reviewer sees them;
// countsOnly keeps their counts (a comment's summary level).
func Parts(p *tofujson.Plan, countsOnly bool, m *mask.Masker) string {
	var b strings.Builder
	laterList(&b, "Deferred to a later plan", len(p.DeferredChanges), countsOnly, func(i int) string {
		d := p.DeferredChanges[i]
		return safe.Code(m, d.ResourceChange.Address) + " — " + safe.Text(m, strings.ReplaceAll(d.Reason, "_", " "))
	})
	laterList(&b, "Actions to invoke", len(p.ActionInvocations), countsOnly, func(i int) string {
		ai := p.ActionInvocations[i]
		line := safe.Code(m, ai.Address)
		if t := ai.LifecycleActionTrigger; t != nil {
			line += " — " + safe.Text(m, strings.ReplaceAll(t.ActionTriggerEvent, "_", " ")) + " of " + safe.Code(m, t.TriggeringResourceAddress)
		}
		return line
	})
	return b.String()
}

// laterList writes a heading with n, then (unless countsOnly) up to
// maxLaterItems items.
func laterList(b *strings.Builder, heading string, n int, countsOnly bool, item func(i int) string) {
	if n == 0 {
		return
	}
	fmt.Fprintf(b, "#### %s (%d)\n\n", heading, n)
	if countsOnly {
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
