package diff

import (
	"github.com/planpr/planpr/flavor"
	"github.com/planpr/planpr/render/tofujson"
	"github.com/zclconf/go-cty/cty"
)

// ForResource diffs a resource change against its schema block. relevant
// limits which attributes count as changed (drift); pass Always() for
// planned changes.
func ForResource(c *tofujson.Change, block *tofujson.Block, relevant Matcher) *Node {
	return (*Arena)(nil).ForResource(c, block, relevant)
}

// Differ diffs as one tool's renderer does. They differ in lists:
// OpenTofu matches elements along the lists' longest common subsequence;
// Terraform compares lists of the same length that are not a reordering
// position by position ("two" -> "four"), heredoc lines too.
type Differ struct{ positional bool }

// For is the Differ of f's renderer (OpenTofu's when f is Unknown).
func For(f flavor.Flavor) Differ { return Differ{positional: f.Terraform()} }

// ForResource is the package's ForResource, as d's tool does it.
func (d Differ) ForResource(c *tofujson.Change, block *tofujson.Block, relevant Matcher) *Node {
	v := changeValue(c, relevant)
	v.positional = d.positional
	return forBlock(v, block)
}

// ForOutput is the package's ForOutput, as d's tool does it.
func (d Differ) ForOutput(c *tofujson.Change) *Node {
	v := changeValue(c, Always())
	v.positional = d.positional
	return forDynamic(v)
}

// ForTyped is the package's ForTyped, as d's tool does it.
func (d Differ) ForTyped(c *tofujson.Change, t cty.Type) *Node {
	v := changeValue(c, Always())
	v.positional = d.positional
	return forType(v, t)
}

// ForOutput diffs an output value change.
func ForOutput(c *tofujson.Change) *Node {
	return forDynamic(changeValue(c, Always()))
}

// ForValue diffs an arbitrary JSON value change with no schema.
func ForValue(c *tofujson.Change) *Node { return ForOutput(c) }

func changeValue(c *tofujson.Change, relevant Matcher) value {
	return value{
		before: c.Before, after: c.After,
		unknown:         c.AfterUnknown,
		beforeSensitive: c.BeforeSensitive, afterSensitive: c.AfterSensitive,
		replace: Paths(c.ReplacePaths, false), relevant: relevant,
	}
}

// Relevant builds the matcher for one drifted resource from the plan's
// relevant_attributes: the paths whose resource is empty or this address.
// It returns nil when no attribute of the resource is relevant, in which
// case its drift is not shown.
func Relevant(attrs []tofujson.ResourceAttr, address string) Matcher {
	var paths [][]any
	for _, a := range attrs {
		if a.Resource == "" || a.Resource == address {
			paths = append(paths, a.Attr)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	return Paths(paths, true)
}

// ForTyped diffs a value of a known type (a state's outputs).
func ForTyped(c *tofujson.Change, t cty.Type) *Node {
	return forType(changeValue(c, Always()), t)
}
