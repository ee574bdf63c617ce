package text

import (
	"github.com/planpr/planpr/flavor"
	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/tofujson"
)

// resourceSymbol is the symbol before a resource's line. Terraform writes
// its forget symbols one column to the left of the others.
func resourceSymbol(action diff.Action, f flavor.Flavor) string {
	if f.Terraform() {
		switch action {
		case diff.Forget:
			return " ."
		case diff.CreateThenForget:
			return " +/."
		}
	}
	return Symbol(action)
}

// writeTerraformComment writes the comment lines above a resource as
// Terraform words them. It says the same as OpenTofu's but for what it
// does not forget (the objects it stops managing, one column to the left),
// a tainted replacement, and an import that changes nothing, which has no
// "(imported from …)" line.
func writeTerraformComment(b *Buf, rc *tofujson.ResourceChange, action diff.Action, cause Cause) {
	addr := rc.Address
	if rc.Deposed != "" {
		addr += " (deposed object " + rc.Deposed + ")"
	}
	switch {
	case action == diff.Forget && rc.Deposed != "":
		writeAll(b, " # ", addr, " will be removed from Terraform state, but will not be destroyed\n",
			" # (left over from a partially-failed replacement of this instance)\n",
			" # (destroy = false is set in the configuration)\n")
	case action == diff.Forget:
		writeAll(b, " # ", addr, " will no longer be managed by Terraform, but will not be destroyed\n",
			" # (destroy = false is set in the configuration)\n")
	case action == diff.CreateThenForget || action == diff.ForgetThenCreate:
		writeAll(b, " # ", addr, " must be replaced, but the existing object will not be destroyed\n",
			" # (destroy = false is set in the configuration)\n")
	case action.IsReplace() && rc.ActionReason == "replace_because_tainted":
		writeAll(b, "  # ", addr, " is tainted, so must be replaced\n")
		writeMovedImported(b, rc, action, false)
	case action == diff.NoOp && !rc.Moved() && rc.Importing():
		writeAll(b, "  # ", addr, " will be imported\n")
		if rc.Change.GeneratedConfig != "" {
			b.WriteString("  # (config will be generated)\n")
		}
	default:
		writeResourceComment(b, rc, action, cause)
	}
}
