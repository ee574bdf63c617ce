package text

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/planpr/planpr/flavor"

	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/tofujson"
)

// Cause says why a resource diff is shown: a planned change, or drift
// detected outside OpenTofu. The comment line's wording depends on it.
type Cause uint8

const (
	CauseChange Cause = iota
	CauseDrift
)

// ResourceText is the text OpenTofu prints for one resource change: the
// comment lines, then the resource line and its body. It returns "" for a
// change OpenTofu does not print (a plain no-op).
func ResourceText(rc *tofujson.ResourceChange, action diff.Action, n *diff.Node, cause Cause, f flavor.Flavor) string {
	if action == diff.NoOp && !rc.Moved() && !rc.Importing() {
		return ""
	}
	var b Buf
	b.Grow(SizeHint(rc.Span, action))
	WriteResource(&b, rc, action, n, cause, f)
	return ownString(&b)
}

// ShownChange is the change whose diff ResourceText shows: the change
// itself, except that Terraform shows an object it forgets as it stands
// (nothing changes in it), where OpenTofu shows it going away.
func ShownChange(rc *tofujson.ResourceChange, action diff.Action, f flavor.Flavor) *tofujson.Change {
	if !f.Terraform() || action != diff.Forget {
		return &rc.Change
	}
	c := rc.Change
	c.After, c.AfterSensitive, c.AfterUnknown = c.Before, c.BeforeSensitive, false
	return &c
}

// HidesUnchanged reports whether ResourceText hides the attributes and
// blocks of a change that do not change (IsImportant ones aside): in
// updates and replacements, unless the resource is being imported. Their
// trees need not be built (diff.Arena.ForResourceHidingUnchanged).
func HidesUnchanged(rc *tofujson.ResourceChange, action diff.Action, f flavor.Flavor) bool {
	switch action {
	case diff.Update, diff.DeleteThenCreate, diff.CreateThenDelete:
		return !rc.Importing()
	case diff.Forget:
		return f.Terraform() && !rc.Importing()
	}
	return false
}

// WriteResource writes ResourceText to b, for a change that is shown.
func WriteResource(b *Buf, rc *tofujson.ResourceChange, action diff.Action, n *diff.Node, cause Cause, f flavor.Flavor) {
	if f.Terraform() {
		writeTerraformComment(b, rc, action, cause)
	} else {
		writeResourceComment(b, rc, action, cause)
	}
	o := Opts{ShowUnchanged: rc.Importing()}
	if action == diff.Forget && !f.Terraform() {
		o.HideSymbols = true
		o.overrideNullSuffix = true
	}
	kind := "resource"
	if rc.Mode != "managed" {
		kind = "data"
	}
	writeAll(b, resourceSymbol(action, f), " ", kind, " \"", rc.Type, "\" \"", rc.Name, "\" ")
	Node(b, n, 0, o)
}

// SizeHint guesses the length of a change's text from its JSON, so
// that the builder rarely grows (each growth copies it all) and holds little
// unused: creations and deletions show every value and come out a quarter
// longer than their JSON; updates and replacements hide what is unchanged
// and print no "before" for the values that are, about two thirds of it.
// Measured on generated plans.
func SizeHint(span tofujson.Span, action diff.Action) int {
	n := int(span.End - span.Start)
	switch action {
	case diff.Create, diff.Delete, diff.Forget:
		n = n * 13 / 10
	default:
		n = n * 4 / 5
	}
	return max(1<<10, n)
}

// writeResourceComment writes the comment lines above a resource.
func writeResourceComment(b *Buf, rc *tofujson.ResourceChange, action diff.Action, cause Cause) {
	addr := rc.Address
	if rc.Deposed != "" {
		addr += " (deposed object " + rc.Deposed + ")"
	}
	leftOver := func() {
		if rc.Deposed != "" {
			b.WriteString("\n  # (left over from a partially-failed replacement of this instance)")
		}
	}
	var printedMoved bool
	switch action {
	case diff.Create:
		writeAll(b, "  # ", addr, " will be created")
	case diff.Read:
		writeAll(b, "  # ", addr, " will be read during apply")
		switch rc.ActionReason {
		case "read_because_config_unknown":
			b.WriteString("\n  # (config refers to values not yet known)")
		case "read_because_dependency_pending":
			b.WriteString("\n  # (depends on a resource or a module with changes pending)")
		case "read_because_check_nested":
			b.WriteString("\n  # (config will be reloaded to verify a check block)")
		}
	case diff.Update:
		if cause == CauseDrift {
			writeAll(b, "  # ", addr, " has changed")
		} else {
			writeAll(b, "  # ", addr, " will be updated in-place")
		}
	case diff.DeleteThenCreate, diff.CreateThenDelete, diff.ForgetThenCreate:
		b.WriteString(replaceComment(addr, rc.ActionReason))
		if action == diff.ForgetThenCreate {
			b.WriteString(" - older instance will not be destroyed (lifecycle.destroy = false)")
			leftOver()
		}
	case diff.Delete:
		if cause == CauseDrift {
			writeAll(b, "  # ", addr, " has been deleted")
		} else {
			writeAll(b, "  # ", addr, " will be destroyed")
		}
		b.WriteString(deleteReason(rc))
		leftOver()
	case diff.Forget:
		writeAll(b, "  # ", addr, " will be removed from the OpenTofu state but will not be destroyed")
		switch rc.ActionReason {
		case "forgot_because_lifecycle_destroy_in_state":
			b.WriteString(" \n (because lifecycle.destroy = false was configured before this resource was removed from the configuration)")
		case "forgot_because_lifecycle_destroy_in_config":
			b.WriteString(" \n (because lifecycle.destroy = false is set in the configuration)")
		}
		leftOver()
	case diff.NoOp:
		switch {
		case rc.Moved():
			writeAll(b, "  # ", rc.PreviousAddress, " has moved to ", addr)
			printedMoved = true
		case rc.Importing():
			writeAll(b, "  # ", addr, " will be imported")
			if rc.Change.GeneratedConfig != "" {
				b.WriteString("\n  # (config will be generated)")
			}
		}
	}
	b.WriteString("\n")
	writeMovedImported(b, rc, action, printedMoved)
}

// writeMovedImported writes the lines under a resource's first comment
// line that say where it moved from and what it is imported from.
func writeMovedImported(b *Buf, rc *tofujson.ResourceChange, action diff.Action, printedMoved bool) {
	if rc.Moved() && !printedMoved {
		writeAll(b, "  # (moved from ", rc.PreviousAddress, ")\n")
	}
	if imp := rc.Change.Importing; imp != nil {
		switch {
		case imp.ID != "":
			writeAll(b, "  # (imported from \"", imp.ID, "\")\n")
		case len(imp.Identity) > 0 && string(imp.Identity) != "null":
			var out bytes.Buffer
			if err := json.Indent(&out, imp.Identity, "  # ", "  "); err != nil {
				writeAll(b, "  # imported using resource identity \"", string(imp.Identity), "\"\n")
			} else {
				writeAll(b, "  # imported using resource identity: ", out.String(), "\n")
			}
		default:
			b.WriteString("  # (will be imported first)\n")
		}
	}
	if rc.Importing() && (action == diff.CreateThenDelete || action == diff.DeleteThenCreate) {
		b.WriteString("  # Warning: this will destroy the imported resource\n")
	}
}

func replaceComment(addr, reason string) string {
	switch reason {
	case "replace_because_tainted":
		return "  # " + addr + " is tainted, so it must be replaced"
	case "replace_by_request":
		return "  # " + addr + " will be replaced, as requested"
	case "replace_by_triggers":
		return "  # " + addr + " will be replaced due to changes in replace_triggered_by"
	}
	return "  # " + addr + " must be replaced"
}

func deleteReason(rc *tofujson.ResourceChange) string {
	switch rc.ActionReason {
	case "delete_because_no_resource_config":
		return fmt.Sprintf("\n  # (because %s.%s is not in configuration)", rc.Type, rc.Name)
	case "delete_because_no_move_target":
		return fmt.Sprintf("\n  # (because %s was moved to %s, which is not in configuration)", rc.PreviousAddress, rc.Address)
	case "delete_because_no_module":
		return fmt.Sprintf("\n  # (because %s is not in configuration)", rc.ModuleAddress)
	case "delete_because_wrong_repetition":
		var index any
		_ = json.Unmarshal(rc.Index, &index)
		switch index.(type) {
		case nil:
			return "\n  # (because resource uses count or for_each)"
		case float64:
			return "\n  # (because resource does not use count)"
		case string:
			return "\n  # (because resource does not use for_each)"
		}
	case "delete_because_count_index":
		return fmt.Sprintf("\n  # (because index [%s] is out of range for count)", rc.Index)
	case "delete_because_each_key":
		return fmt.Sprintf("\n  # (because key [%s] is not in for_each map)", rc.Index)
	case "delete_because_enabled_false":
		return "\n  # (because enabled is false)"
	}
	return ""
}
