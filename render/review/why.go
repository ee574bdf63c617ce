package review

import (
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/tofujson"
)

// DeleteWhy says why a resource is destroyed, from its action_reason;
// "" when the plan does not say.
func DeleteWhy(reason string) string {
	switch reason {
	case "delete_because_no_resource_config":
		return "its resource block is no longer in the configuration"
	case "delete_because_no_move_target":
		return "it was moved to an address that is not in the configuration"
	case "delete_because_no_module":
		return "its module is no longer in the configuration"
	case "delete_because_wrong_repetition":
		return "count/for_each changed on its resource"
	case "delete_because_count_index":
		return "its index is out of range for count"
	case "delete_because_each_key":
		return "its key is no longer in for_each"
	case "delete_because_enabled_false":
		return "enabled is false"
	}
	return ""
}

// ReplaceWhy says why a resource is replaced, from its action_reason;
// "" when its replace_paths say it (or nothing does).
func ReplaceWhy(reason string) string {
	switch reason {
	case "replace_because_tainted":
		return "it is tainted"
	case "replace_by_request":
		return "replacement was requested (-replace)"
	case "replace_by_triggers":
		return "replace_triggered_by changed"
	}
	return ""
}

// MaskedPath is tofujson.PathString with every step that is a marked map's key
// hidden: replace_paths name the keys of sensitive maps.
func MaskedPath(m *mask.Masker, p []any) string {
	masked := make([]any, len(p))
	for i, step := range p {
		masked[i] = step
		if s, ok := step.(string); ok && i > 0 {
			if m.IsKey(s) {
				masked[i] = mask.Masked
			}
		}
	}
	return tofujson.PathString(masked)
}
