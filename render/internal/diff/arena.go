package diff

import (
	"github.com/planpr/planpr/flavor"
	"github.com/planpr/planpr/render/tofujson"
)

// Arena hands out the Nodes of one tree at a time from memory it keeps: a
// renderer done with a tree calls Reset and builds the next one in the
// same memory, instead of leaving every node to the garbage collector (a
// plan has a node per value). A nil *Arena allocates each Node on its own.
type Arena struct {
	blocks [][]Node
	block  int // the block being filled
	used   int // how many of its nodes are handed out
	// hiding is set while ForResourceHidingUnchanged builds a tree; shown
	// names the attributes it builds all the same.
	hiding bool
	shown  func(attribute string) bool
	differ Differ // whose rules the trees follow
	// The nodes' fields, list elements, block groups (and their lists),
	// map keys and the lines of their strings, handed out and taken back
	// with the nodes.
	fields slab[Field]
	elems  slab[*Node]
	lines  slab[Line]
	texts  slab[string]
	groups slab[BlockGroup]
	nested slab[*BlockGroup]
}

// Follow makes the trees a builds follow f's rules (see Differ).
func (a *Arena) Follow(f flavor.Flavor) { a.differ = For(f) }

// arenaBlock is how many Nodes an Arena allocates at once; arenaKeep is
// how many blocks it keeps across Reset (a huge tree's are let go).
const (
	arenaBlock = 256
	arenaKeep  = 16
)

// ForResource is ForResource with the tree's nodes taken from a (nil: each
// allocated on its own).
func (a *Arena) ForResource(c *tofujson.Change, block *tofujson.Block, relevant Matcher) *Node {
	v := changeValue(c, relevant)
	v.nodes = a
	if a != nil {
		v.positional = a.differ.positional
	}
	return forBlock(v, block)
}

// ForResourceHidingUnchanged is ForResource for a renderer that hides
// what does not change, as OpenTofu's does in an update or a replacement
// (but not in an import): block attributes and nested blocks that do not
// change come back as Unchanged nodes, without the trees below them,
// except the attributes that shown says are always shown (OpenTofu's
// id, name and tags), which are built in full. a must not be nil.
func (a *Arena) ForResourceHidingUnchanged(c *tofujson.Change, block *tofujson.Block, relevant Matcher, shown func(attribute string) bool) *Node {
	a.hiding, a.shown = true, shown
	defer func() { a.hiding, a.shown = false, nil }()
	return a.ForResource(c, block, relevant)
}

// hides reports whether the attribute (or nested block, "" for one) is
// left unbuilt when it does not change.
func (a *Arena) hides(attribute string) bool {
	return a != nil && a.hiding && (attribute == "" || !a.shown(attribute))
}

// unchangedNode stands for a value that does not change, unbuilt.
func (a *Arena) unchangedNode() *Node { return a.new(Node{Kind: Unchanged, Action: NoOp}) }

// Reset takes back every Node handed out: the trees made of them must not
// be used any more.
func (a *Arena) Reset() {
	if a == nil {
		return
	}
	for i := 0; i < len(a.blocks) && i <= a.block; i++ {
		n := arenaBlock
		if i == a.block {
			n = a.used
		}
		clear(a.blocks[i][:n]) // let go of the values the nodes held
	}
	if len(a.blocks) > arenaKeep {
		a.blocks = a.blocks[:arenaKeep]
	}
	a.block, a.used = 0, 0
	a.fields.reset()
	a.elems.reset()
	a.lines.reset()
	a.texts.reset()
	a.groups.reset()
	a.nested.reset()
}

// new returns a Node holding n.
func (a *Arena) new(n Node) *Node {
	if a == nil {
		p := new(Node)
		*p = n
		return p
	}
	if a.block == len(a.blocks) {
		a.blocks = append(a.blocks, make([]Node, arenaBlock))
	}
	p := &a.blocks[a.block][a.used]
	*p = n
	if a.used++; a.used == arenaBlock {
		a.block, a.used = a.block+1, 0
	}
	return p
}
