// Package text writes OpenTofu's human text for diff trees: the node
// walker (every value kind, as OpenTofu's RenderHuman), a resource's
// comment and body, and the buffer they write into. Plans, states and
// streams are put together from it by package render.
package text

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/planpr/planpr/render/internal/diff"
)

// Opts are the switches OpenTofu's renderers pass down the tree.
type Opts struct {
	overrideNullSuffix bool
	// overrideForces never cascades: clone resets it.
	overrideForces bool
	ShowUnchanged  bool
	HideSymbols    bool
}

func (o Opts) clone() Opts {
	o.overrideForces = false
	return o
}

// Symbol is the action's column in OpenTofu's text (3 columns, except
// ForgetThenCreate's 5).
func Symbol(a diff.Action) string {
	switch a {
	case diff.Create:
		return "  +"
	case diff.Delete:
		return "  -"
	case diff.Update:
		return "  ~"
	case diff.DeleteThenCreate:
		return "-/+"
	case diff.CreateThenDelete:
		return "+/-"
	case diff.Read:
		return " <="
	case diff.Forget:
		return "  ."
	case diff.ForgetThenCreate:
		return "  ./+"
	case diff.CreateThenForget:
		return "+/."
	}
	return "   "
}

// symbols are Symbol with the space that follows it, by action.
var symbols = func() (s [diff.CreateThenForget + 1]string) {
	for a := range s {
		s[a] = Symbol(diff.Action(a)) + " "
	}
	return s
}()

func (o Opts) sym(a diff.Action) string {
	if o.HideSymbols {
		return ""
	}
	if int(a) < len(symbols) {
		return symbols[a]
	}
	return Symbol(a) + " "
}

// indents holds the indentation of the levels most documents reach.
var indents = func() (s [16]string) {
	for i := range s {
		s[i] = strings.Repeat("    ", i)
	}
	return s
}()

func ind(n int) string {
	if n < len(indents) {
		return indents[n]
	}
	return strings.Repeat("    ", n)
}

// ownString is what b holds, as a string.
func ownString(b *Buf) string { return string(b.Bytes()) }

// writeAll writes the pieces of one line without joining them first.
func writeAll(b *Buf, parts ...string) {
	for _, p := range parts {
		b.WriteString(p)
	}
}

// spaces pads names to a column.
var spaces = strings.Repeat(" ", 128)

// writePadded writes s left-aligned in width columns, like %-*s.
func writePadded(b *Buf, s string, width int) {
	b.WriteString(s)
	for pad := width - utf8.RuneCountInString(s); pad > 0; pad -= len(spaces) {
		b.WriteString(spaces[:min(pad, len(spaces))])
	}
}

// quotedLen is the length of strconv.Quote(s) in bytes, which is how
// both tools measure the widest key; quotedWidth is its width in runes,
// which is how %-*s pads it. Non-ASCII keys come out misaligned in their
// output, and so in planpr's.
func quotedLen(s string) int {
	if plainASCII(s) {
		return len(s) + 2
	}
	return len(strconv.Quote(s))
}

func quotedWidth(s string) int {
	if plainASCII(s) {
		return len(s) + 2
	}
	return utf8.RuneCountInString(strconv.Quote(s))
}

// plainASCII reports whether strconv.Quote(s) is s in quotes.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// writeQuoted writes strconv.Quote(s), without building it when s needs
// no escaping (printable ASCII, no quote or backslash).
func writeQuoted(b *Buf, s string) {
	if !plainASCII(s) {
		b.WriteString(strconv.Quote(s))
		return
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

func nullSuffix(a diff.Action, o Opts) string {
	if !o.overrideNullSuffix && a == diff.Delete {
		return " -> null"
	}
	return ""
}

func forces(replace bool, o Opts) string {
	if replace || o.overrideForces {
		return " # forces replacement"
	}
	return ""
}

// writeUnchanged writes the line that stands for n hidden values: its
// indent and symbol column, then "# (n unchanged keywords hidden)".
func writeUnchanged(b *Buf, prefix, sym, keyword string, n int) {
	var num [20]byte
	writeAll(b, prefix, sym, "# (")
	b.Write(strconv.AppendInt(num[:0], int64(n), 10))
	writeAll(b, " unchanged ", keyword)
	if n != 1 {
		b.WriteByte('s')
	}
	b.WriteString(" hidden)\n")
}

// AttrName prints a key as an HCL identifier, or quoted (Go-style, as
// OpenTofu does) when it is not one.
func AttrName(name string) string {
	if validIdentifier(name) {
		return name
	}
	return strconv.Quote(name)
}

// validIdentifier is hclsyntax.ValidIdentifier with a fast path for the
// ASCII names nearly every attribute has.
func validIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return hclsyntax.ValidIdentifier(s)
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '-'):
		default:
			return false
		}
	}
	return true
}

func IsImportant(name string) bool { return name == "id" || name == "name" || name == "tags" }

// Node renders one node at an indent level, as OpenTofu's RenderHuman.
func Node(b *Buf, n *diff.Node, k int, o Opts) {
	switch n.Kind {
	case diff.Primitive:
		textPrimitive(b, n, o)
	case diff.String:
		textString(b, n, k, o)
	case diff.List:
		textList(b, n, k, o)
	case diff.Set:
		textSet(b, n, k, o)
	case diff.Map:
		textMap(b, n, k, o)
	case diff.Object:
		textObject(b, n, k, o)
	case diff.Block:
		textBlock(b, n, k, o)
	case diff.Sensitive:
		b.WriteString("(sensitive value)" + nullSuffix(n.Action, o) + forces(n.Replace, o))
	case diff.SensitiveBlock:
		p := ind(k) + o.sym(diff.NoOp)
		b.WriteString("{" + forces(n.Replace, o) + "\n" +
			p + "  # At least one attribute in this block is (or was) sensitive,\n" +
			p + "  # so its contents will not be displayed.\n" + p + "}")
	case diff.Unknown:
		if n.Action == diff.Create || n.Inner == nil {
			b.WriteString("(known after apply)" + forces(n.Replace, o))
			return
		}
		in := o
		in.overrideNullSuffix = true
		// What forces the replacement is said once, after "(known after
		// apply)": the value before is never marked (a heredoc's opening
		// line would say it again).
		before := *n.Inner
		before.Replace = false
		Node(b, &before, k, in)
		b.WriteString(" -> (known after apply)" + forces(n.Replace, o))
	case diff.TypeChange:
		in := o
		in.overrideNullSuffix = true
		Node(b, n.From, k, in)
		b.WriteString(" -> ")
		Node(b, n.To, k, in)
	case diff.WriteOnly:
		b.WriteString("(write-only attribute)" + forces(n.Replace, o) + nullSuffix(n.Action, o))
	default:
		panic(fmt.Sprintf("render: unknown diff node kind %d", n.Kind))
	}
}

// warnings are the lines OpenTofu prints above a value whose sensitivity
// changes.
func warnings(n *diff.Node, k int) []string {
	if (n.Kind != diff.Sensitive && n.Kind != diff.SensitiveBlock) || n.BeforeSensitive == n.AfterSensitive ||
		n.Inner.Action == diff.Create || n.Inner.Action == diff.Delete {
		return nil
	}
	what := "attribute value"
	if n.Kind == diff.SensitiveBlock {
		what = "block"
	}
	var w string
	if n.BeforeSensitive {
		w = "  # Warning: this " + what + " will no longer be marked as sensitive\n" + ind(k) + "  # after applying this change."
	} else {
		w = "  # Warning: this " + what + " will be marked as sensitive and will not\n" + ind(k) + "  # display in UI output after applying this change."
	}
	if n.Kind == diff.Sensitive && n.Inner.Action == diff.NoOp {
		w += " The value is unchanged."
	}
	return []string{w}
}

func writeWarnings(b *Buf, n *diff.Node, k int) {
	if n.Kind != diff.Sensitive && n.Kind != diff.SensitiveBlock {
		return
	}
	for _, w := range warnings(n, k) {
		writeAll(b, ind(k), w, "\n")
	}
}

func primitiveText(x any) string {
	switch v := x.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return v.String()
	case string:
		return strconv.Quote(v)
	}
	return fmt.Sprint(x)
}

// writePrimitive writes primitiveText(x).
func writePrimitive(b *Buf, x any) {
	if s, ok := x.(string); ok {
		writeQuoted(b, s)
		return
	}
	b.WriteString(primitiveText(x))
}

func textPrimitive(b *Buf, n *diff.Node, o Opts) {
	switch n.Action {
	case diff.Create:
		writePrimitive(b, n.After)
	case diff.Delete:
		writePrimitive(b, n.Before)
		b.WriteString(nullSuffix(n.Action, o))
	case diff.NoOp:
		writePrimitive(b, n.Before)
	default:
		writePrimitive(b, n.Before)
		b.WriteString(" -> ")
		writePrimitive(b, n.After)
	}
	b.WriteString(forces(n.Replace, o))
}

func textString(b *Buf, n *diff.Node, k int, o Opts) {
	switch n.Str.Form {
	case diff.JSONEncoded:
		textJSONString(b, n, k, o)
	case diff.Heredoc:
		writeAll(b, "<<-EOT", forces(n.Replace, o), "\n")
		for _, l := range n.Str.Lines {
			writeAll(b, ind(k+1), o.sym(l.Action), l.Text, "\n")
		}
		writeAll(b, ind(k), o.sym(diff.NoOp), "EOT", nullSuffix(n.Action, o))
		if n.Str.Unaligned {
			writeAll(b, " ", unalignedNote)
		}
	default:
		switch n.Action {
		case diff.Create, diff.NoOp:
			writePrimitive(b, n.After)
		case diff.Delete:
			if n.Before == nil {
				b.WriteString("null")
				break
			}
			writePrimitive(b, n.Before)
			b.WriteString(nullSuffix(n.Action, o))
		default:
			writePrimitive(b, n.Before)
			b.WriteString(" -> ")
			writePrimitive(b, n.After)
		}
		b.WriteString(forces(n.Replace, o))
	}
}

func textJSONString(b *Buf, n *diff.Node, k int, o Opts) {
	jo := o.clone()
	jo.overrideNullSuffix = true
	action := n.Action
	var ws, rep string
	if n.Str.Whitespace {
		ws = " # whitespace changes"
		if n.Replace {
			ws = " # whitespace changes force replacement"
		}
		jo.ShowUnchanged = true
		action = diff.NoOp
	} else {
		rep = forces(n.Replace, o)
	}
	if n.Action == diff.Create || n.Action == diff.Delete {
		action = diff.NoOp
	}
	// The JSON goes on lines of its own when it spans lines. Which it does
	// is known before rendering it, so it is written in place.
	start := b.Len()
	multiline := spansLines(n.Str.JSON)
	if multiline {
		writeAll(b, "jsonencode(", ws, "\n", ind(k+1), o.sym(action))
	} else {
		b.WriteString("jsonencode(")
	}
	inner := b.Len()
	Node(b, n.Str.JSON, k+1, jo)
	if bytes.Contains(b.Bytes()[inner:], []byte{'\n'}) != multiline {
		// spansLines guessed wrong: rewrite this value the slow way.
		rendered := string(b.Bytes()[inner:])
		b.Truncate(start)
		multiline = !multiline
		if multiline {
			writeAll(b, "jsonencode(", ws, "\n", ind(k+1), o.sym(action))
		} else {
			b.WriteString("jsonencode(")
		}
		b.WriteString(rendered)
	}
	if multiline {
		writeAll(b, rep, "\n", ind(k), o.sym(diff.NoOp), ")", nullSuffix(n.Action, o))
		return
	}
	writeAll(b, ")", ws, rep)
}

// spansLines predicts whether a JSON value's text has a line break:
// non-empty objects and lists do, and so do the strings shown as heredocs
// (textJSONString checks the prediction).
func spansLines(n *diff.Node) bool {
	switch n.Kind {
	case diff.Object, diff.Map:
		return len(n.Children) > 0
	case diff.List, diff.Set:
		return len(n.Elements) > 0
	case diff.String:
		switch n.Str.Form {
		case diff.Heredoc:
			return true
		case diff.JSONEncoded:
			return spansLines(n.Str.JSON)
		}
	case diff.TypeChange:
		return spansLines(n.From) || spansLines(n.To)
	case diff.Unknown:
		return n.Action != diff.Create && n.Inner != nil && spansLines(n.Inner)
	}
	return false
}

// unalignedNote marks a list or heredoc too long and too changed to align
// element by element (OpenTofu would need gigabytes for it).
const unalignedNote = "# (planpr: too many changes to align; the changed part is shown as removed and added)"

func textList(b *Buf, n *diff.Node, k int, o Opts) {
	if len(n.Elements) == 0 {
		writeAll(b, "[]", nullSuffix(n.Action, o), forces(n.Replace, o))
		return
	}
	elemOpts := o.clone()
	elemOpts.overrideNullSuffix = true
	unchangedOpts := o.clone()
	unchangedOpts.ShowUnchanged = true
	context := !n.Nested

	var pending []*diff.Node // unchanged elements not yet shown
	renderNext := false
	writeAll(b, "[", forces(n.Replace, o), "\n")
	if n.Unaligned {
		writeAll(b, ind(k+1), o.sym(diff.NoOp), unalignedNote, "\n")
	}
	for _, e := range n.Elements {
		if e.Action == diff.NoOp && !renderNext && !o.ShowUnchanged {
			pending = append(pending, e)
			continue
		}
		renderNext = false
		eo := elemOpts
		if context {
			if len(pending) > 1 {
				writeUnchanged(b, ind(k+1), eo.sym(diff.NoOp), "element", len(pending)-1)
			}
			if len(pending) > 0 {
				last := pending[len(pending)-1]
				writeAll(b, ind(k+1), unchangedOpts.sym(last.Action))
				Node(b, last, k+1, unchangedOpts)
				b.WriteString(",\n")
			}
			pending = pending[:0]
			if e.Action == diff.NoOp {
				eo = unchangedOpts
			} else {
				renderNext = true
			}
		}
		writeWarnings(b, e, k+1)
		writeAll(b, ind(k+1), eo.sym(e.Action))
		Node(b, e, k+1, eo)
		b.WriteString(",\n")
	}
	if len(pending) > 0 {
		writeUnchanged(b, ind(k+1), o.sym(diff.NoOp), "element", len(pending))
	}
	writeAll(b, ind(k), o.sym(diff.NoOp), "]", nullSuffix(n.Action, o))
}

func textSet(b *Buf, n *diff.Node, k int, o Opts) {
	self := n.Replace && !n.Nested
	children := n.Replace && n.Nested
	if len(n.Elements) == 0 {
		writeAll(b, "[]", nullSuffix(n.Action, o), forces(self, o))
		return
	}
	eo := o.clone()
	eo.overrideNullSuffix = true
	eo.overrideForces = children
	hidden := 0
	writeAll(b, "[", forces(self, o), "\n")
	for _, e := range n.Elements {
		if e.Action == diff.NoOp && !o.ShowUnchanged {
			hidden++
			continue
		}
		writeWarnings(b, e, k+1)
		writeAll(b, ind(k+1), eo.sym(e.Action))
		Node(b, e, k+1, eo)
		b.WriteString(",\n")
	}
	if hidden > 0 {
		writeUnchanged(b, ind(k+1), o.sym(diff.NoOp), "element", hidden)
	}
	writeAll(b, ind(k), o.sym(diff.NoOp), "]", nullSuffix(n.Action, o))
}

func textMap(b *Buf, n *diff.Node, k int, o Opts) {
	self := n.Replace && !n.Nested
	children := n.Replace && n.Nested
	if len(n.Children) == 0 {
		writeAll(b, "{}", nullSuffix(n.Action, o), forces(self, o))
		return
	}
	width := 0
	for _, c := range n.Children {
		width = max(width, quotedLen(c.Name))
	}
	eo := o.clone()
	eo.overrideNullSuffix = n.Action == diff.Delete || n.Nested
	eo.overrideForces = children
	hidden := 0
	writeAll(b, "{", forces(self, o), "\n")
	for _, c := range n.Children {
		key, e := c.Name, c.Node
		if e.Action == diff.NoOp && !o.ShowUnchanged {
			hidden++
			continue
		}
		writeWarnings(b, e, k+1)
		writeAll(b, ind(k+1), eo.sym(e.Action))
		writeQuoted(b, key)
		if !n.Nested {
			writePadded(b, "", width-quotedWidth(key))
		}
		b.WriteString(" = ")
		Node(b, e, k+1, eo)
		if e.Kind == diff.Object {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	if hidden > 0 {
		writeUnchanged(b, ind(k+1), o.sym(diff.NoOp), "element", hidden)
	}
	writeAll(b, ind(k), o.sym(diff.NoOp), "}", nullSuffix(n.Action, o))
}

// textAttributes writes the sorted attribute lines of an object or block
// and returns how many unchanged ones it hid.
func textAttributes(b *Buf, attrs []diff.Field, k int, o, ao Opts) int {
	var namesBuf [32]string
	names := namesBuf[:0]
	width := 0
	for _, f := range attrs {
		names = append(names, AttrName(f.Name))
		width = max(width, len(names[len(names)-1])) // bytes, padded by runes: as both tools do
	}
	hidden := 0
	for i, f := range attrs {
		key, a := f.Name, f.Node
		lo := ao
		if IsImportant(key) {
			lo = ao.clone()
			lo.ShowUnchanged = true
		} else if a.Action == diff.NoOp && !o.ShowUnchanged {
			hidden++
			continue
		}
		writeWarnings(b, a, k+1)
		writeAll(b, ind(k+1), lo.sym(a.Action))
		writePadded(b, names[i], width)
		b.WriteString(" = ")
		Node(b, a, k+1, lo)
		b.WriteByte('\n')
	}
	return hidden
}

func textObject(b *Buf, n *diff.Node, k int, o Opts) {
	if len(n.Children) == 0 {
		writeAll(b, "{}", nullSuffix(n.Action, o), forces(n.Replace, o))
		return
	}
	ao := o.clone()
	ao.overrideNullSuffix = !n.Nested
	writeAll(b, "{", forces(n.Replace, o), "\n")
	if hidden := textAttributes(b, n.Children, k, o, ao); hidden > 0 {
		writeUnchanged(b, ind(k+1), o.sym(diff.NoOp), "attribute", hidden)
	}
	writeAll(b, ind(k), o.sym(diff.NoOp), "}", nullSuffix(n.Action, o))
}

func textBlock(b *Buf, n *diff.Node, k int, o Opts) {
	if len(n.Children) == 0 && len(n.Blocks) == 0 {
		writeAll(b, "{}", forces(n.Replace, o))
		return
	}
	writeAll(b, "{", forces(n.Replace, o), "\n")
	if hidden := textAttributes(b, n.Children, k, o, o.clone()); hidden > 0 {
		writeUnchanged(b, ind(k+1), o.sym(diff.NoOp), "attribute", hidden)
	}
	hiddenBlocks := 0
	for _, g := range n.Blocks {
		shown := false
		for i, item := range g.Items {
			if item.Action == diff.NoOp && !o.ShowUnchanged {
				hiddenBlocks++
				continue
			}
			if !shown && len(n.Children) > 0 {
				b.WriteByte('\n')
			}
			shown = true
			bo := o.clone()
			bo.overrideForces = g.Replace
			writeWarnings(b, item, k+1)
			writeAll(b, ind(k+1), bo.sym(item.Action), AttrName(g.Name))
			if g.Mode == "map" {
				b.WriteByte(' ')
				writeQuoted(b, g.Keys[i])
			}
			b.WriteByte(' ')
			Node(b, item, k+1, bo)
			b.WriteByte('\n')
		}
	}
	if hiddenBlocks > 0 {
		b.WriteByte('\n')
		writeUnchanged(b, ind(k+1), o.sym(diff.NoOp), "block", hiddenBlocks)
	}
	writeAll(b, ind(k), o.sym(diff.NoOp), "}")
}
