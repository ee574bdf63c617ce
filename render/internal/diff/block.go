package diff

import (
	"slices"
	"strings"

	"github.com/planpr/planpr/render/tofujson"
)

// forBlock diffs a block (a resource body or a nested block) against its
// schema.
func forBlock(v value, b *tofujson.Block) *Node {
	if n, ok := checkSensitive(v, func(in value) *Node { return forBlock(in, b) }, SensitiveBlock); ok {
		return n
	}
	if n, ok := checkUnknown(v, func() any { return allTrue(b.Attributes) }, func(in value) *Node { return forBlock(in, b) }); ok {
		return n
	}
	action := v.iterationAction()
	m := v.asMap()
	attrs := v.nodes.newFields(len(b.Attributes))
	for _, a := range b.AttributeOrder() {
		if n := blockAttribute(m.child(a.Name), a.Name, a.Attribute, action); n != nil {
			attrs = append(attrs, Field{a.Name, n})
			action = fold(action, n.Action)
		}
	}
	// Write-only attributes were diffed last; they are shown in name order.
	if !slices.IsSortedFunc(attrs, compareFields) {
		slices.SortFunc(attrs, compareFields)
	}

	groups := v.nodes.newGroupList(len(b.BlockTypes))
	for name, bt := range b.BlockTypes {
		child := relevantOrNoOp(m.child(name))
		g := v.nodes.newGroup(BlockGroup{
			Name:            name,
			Mode:            bt.NestingMode,
			Replace:         child.replace.Matches(),
			BeforeSensitive: child.isBeforeSensitive(),
			AfterSensitive:  child.isAfterSensitive(),
		})
		bothNull := child.before == nil && child.after == nil
		if n, ok := checkUnknown(child, func() any { return allTrue(bt.Block.Attributes) }, func(in value) *Node { return forBlock(in, bt.Block) }); ok {
			if n.Action == NoOp && bothNull {
				continue
			}
			g.Mode = tofujson.NestingSingle
			g.Items = append(v.nodes.newNodes(1), n)
			g.maskItems(v.nodes)
			groups = append(groups, g)
			continue
		}
		var groupAction Action
		elem := func(in value) *Node {
			if v.nodes.hides("") && in.unchanged() {
				return v.nodes.unchangedNode()
			}
			return forBlock(in, bt.Block)
		}
		switch bt.NestingMode {
		case tofujson.NestingSet:
			g.Items, groupAction = setElements(child, elem)
		case tofujson.NestingList:
			g.Items, groupAction = indexPaired(child, elem)
		case tofujson.NestingMap:
			cm := child.asMap()
			var items []Field
			items, groupAction = mapChildren(cm, cm.explicitKeys(), func(in value) *Node { return elem(relevantOrNoOp(in)) })
			for _, f := range items {
				g.Keys = append(g.Keys, f.Name)
				g.Items = append(g.Items, f.Node)
			}
		default: // single, group
			n := elem(child)
			g.Mode = tofujson.NestingSingle
			g.Items, groupAction = append(v.nodes.newNodes(1), n), n.Action
		}
		if groupAction == NoOp && bothNull {
			continue
		}
		g.maskItems(v.nodes)
		groups = append(groups, g)
		action = fold(action, groupAction)
	}
	slices.SortFunc(groups, func(x, y *BlockGroup) int { return strings.Compare(x.Name, y.Name) })
	return v.nodes.new(Node{Kind: Block, Children: attrs, Blocks: groups, Action: action, Replace: v.replace.Matches()})
}

// blockAttribute diffs one attribute of a block, or returns nil when it is
// null on both sides (such attributes are neither shown nor counted).
func blockAttribute(v value, name string, a *tofujson.Attribute, blockAction Action) *Node {
	v = relevantOrNoOp(v)
	// The legacy SDK cannot store null strings, so "" means null in blocks.
	if s, ok := v.before.(string); ok && s == "" {
		v.before = nil
	}
	if s, ok := v.after.(string); ok && s == "" {
		v.after = nil
	}
	v.beforeExplicit, v.afterExplicit = false, false
	if !a.WriteOnly && v.nodes.hides(name) && v.unchanged() {
		if v.before == nil && v.after == nil {
			return nil
		}
		return v.nodes.unchangedNode()
	}
	n := forAttribute(v, a, blockAction)
	if n.Action == NoOp && v.before == nil && v.after == nil && !a.WriteOnly {
		return nil
	}
	return n
}

func compareFields(a, b Field) int { return strings.Compare(a.Name, b.Name) }

// maskItems hides each block of a group that is sensitive as a whole.
func (g *BlockGroup) maskItems(nodes *Arena) {
	for i, item := range g.Items {
		creating := item.Action == Create && g.AfterSensitive
		deleting := item.Action == Delete && g.BeforeSensitive
		modifying := (item.Action == Update || item.Action == NoOp) && (g.AfterSensitive || g.BeforeSensitive)
		if !creating && !deleting && !modifying {
			continue
		}
		action := item.Action
		if action == NoOp && g.BeforeSensitive != g.AfterSensitive {
			action = Update
		}
		g.Items[i] = nodes.new(Node{Kind: SensitiveBlock, Inner: item, BeforeSensitive: g.BeforeSensitive,
			AfterSensitive: g.AfterSensitive, Action: action, Replace: item.Replace})
	}
}
