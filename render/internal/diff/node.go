package diff

import (
	"slices"
	"strings"

	"github.com/planpr/planpr/render/tofujson"
)

// Action is what happens to a value; nested values only use NoOp, Create,
// Update and Delete.
type Action = tofujson.Action

// The actions, re-exported so diff trees can be written without the model.
const (
	NoOp             = tofujson.NoOp
	Create           = tofujson.Create
	Read             = tofujson.Read
	Update           = tofujson.Update
	Delete           = tofujson.Delete
	DeleteThenCreate = tofujson.DeleteThenCreate
	CreateThenDelete = tofujson.CreateThenDelete
	Forget           = tofujson.Forget
	ForgetThenCreate = tofujson.ForgetThenCreate
	CreateThenForget = tofujson.CreateThenForget
)

// Kind says which fields of a Node are in use and how it renders.
type Kind uint8

const (
	// Primitive: a number, bool or null in Before/After (json.Number, bool, nil).
	Primitive Kind = iota
	// String: a string attribute; see StringDiff for its form.
	String
	// List: Elements in order. Nested lists (nested attribute types) show no
	// context around changed elements.
	List
	// Set: Elements, unchanged ones hidden.
	Set
	// Map: Children by key; keys are always quoted.
	Map
	// Object: Children by attribute name.
	Object
	// Block: a resource body or nested block: Children (its attributes)
	// and Blocks.
	Block
	// Sensitive: a masked value; Inner is the diff it hides.
	Sensitive
	// SensitiveBlock: a nested block group that is sensitive as a whole.
	SensitiveBlock
	// Unknown: a value known only after apply; Inner is the before value
	// (as a deletion), nil when the value is being created.
	Unknown
	// TypeChange: the value changes type; From is the old value as a
	// deletion, To the new one as a creation.
	TypeChange
	// WriteOnly: an attribute whose value is never stored.
	WriteOnly
	// Unchanged: a block attribute or nested block that does not change,
	// its tree left unbuilt (see Arena.ForResourceHidingUnchanged). Its
	// Action is NoOp; there is nothing in it to show.
	Unchanged
)

// Node is one value in the diff tree. Trees have a node per value of a
// plan, so the small fields are packed together at the start.
type Node struct {
	Kind    Kind
	Action  Action
	Replace bool // this value is the one forcing the resource to be replaced
	// Nested is set on List, Set, Map and Object nodes made from nested
	// attribute types (nested_type), which render slightly differently from
	// the same collections of plain attribute types.
	Nested bool
	// Unaligned is set on a List whose elements were too many and too
	// changed to align one by one: the changed middle is shown removed and
	// added (see lcs).
	Unaligned bool
	// Sensitive, SensitiveBlock: which sides are sensitive.
	BeforeSensitive, AfterSensitive bool

	// Primitive and String: the values (String's are string or nil).
	Before, After any
	// String: how the string is shown.
	Str *StringDiff

	// List and Set.
	Elements []*Node

	// Map, Object, and Block (its attributes): sorted by name.
	Children []Field
	// Block.
	Blocks []*BlockGroup // sorted by name

	// Sensitive, SensitiveBlock, Unknown.
	Inner *Node

	// TypeChange.
	From, To *Node
}

// Field is one named child of a Node: a map element, an object attribute
// or a block attribute. Nodes keep their fields sorted by name (in byte
// order), the order they are shown in.
type Field struct {
	Name string
	Node *Node
}

// Field returns the child with the given name, or nil.
func (n *Node) Field(name string) *Node {
	i, found := slices.BinarySearchFunc(n.Children, name, func(f Field, name string) int { return strings.Compare(f.Name, name) })
	if !found {
		return nil
	}
	return n.Children[i].Node
}

// BlockGroup is every block of one nested block type inside a Block.
type BlockGroup struct {
	Name    string
	Mode    string  // tofujson.NestingSingle, List, Set or Map
	Items   []*Node // Single: one item; Map: one per key in Keys order
	Keys    []string
	Replace bool // the whole group forces replacement
	// The whole group was (or becomes) sensitive.
	BeforeSensitive, AfterSensitive bool
}

// StringForm says how a string value is shown.
type StringForm uint8

const (
	// Plain strings are quoted on one line.
	Plain StringForm = iota
	// Heredoc strings span lines (<<-EOT … EOT); Lines holds what to print.
	Heredoc
	// JSONEncoded strings hold JSON and are shown as jsonencode(…) of JSON,
	// the diff of the decoded values.
	JSONEncoded
)

// StringDiff is the string-specific part of a String node.
type StringDiff struct {
	Form StringForm
	// Heredoc: each line with its own action (NoOp unless the string is
	// being updated).
	Lines []Line
	// JSONEncoded: the diff of the decoded JSON; Whitespace is set when only
	// the formatting of the JSON text changed.
	JSON       *Node
	Whitespace bool
	// Unaligned: a heredoc whose lines were too many and too changed to
	// align; its changed middle is shown removed and added.
	Unaligned bool
}

// Line is one line of a heredoc string diff.
type Line struct {
	Action Action
	Text   string
}
