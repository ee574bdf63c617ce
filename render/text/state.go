package text

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/planpr/planpr/render/review"

	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/tofujson"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

const (
	msgStateEmpty = "The state file is empty. No resources are represented.\n"
)

// stateOpts are how OpenTofu shows a state: everything, no symbols.
var stateOpts = Opts{ShowUnchanged: true, HideSymbols: true}

// StateResourceText is one resource of a state as `tofu show` prints it.
func StateResourceText(r *tofujson.StateResource, o review.PlanOptions) (string, error) {
	rc := &tofujson.ResourceChange{Address: r.Address, Mode: r.Mode, Type: r.Type, Name: r.Name, ProviderName: r.ProviderName,
		Change: tofujson.Change{Before: r.Values, After: r.Values, AfterUnknown: false, BeforeSensitive: r.SensitiveValues, AfterSensitive: r.SensitiveValues}}
	block, err := o.SchemaFor(rc, nil)
	if err != nil {
		return "", err
	}
	var b Buf
	switch {
	case r.DeposedKey != "":
		fmt.Fprintf(&b, "# %s: (deposed object %s)\n", r.Address, r.DeposedKey)
	case r.Tainted:
		fmt.Fprintf(&b, "# %s: (tainted)\n", r.Address)
	default:
		fmt.Fprintf(&b, "# %s:\n", r.Address)
	}
	kind := "resource"
	if r.Mode != "managed" {
		kind = "data"
	}
	fmt.Fprintf(&b, "%s %q %q ", kind, r.Type, r.Name)
	Node(&b, diff.ForResource(&rc.Change, block, diff.Always()), 0, stateOpts)
	return b.String(), nil
}

// StateOutputText is one root output of a state: "name = value".
func StateOutputText(name string, out tofujson.StateOutput) string {
	c := &tofujson.Change{Before: out.Value, After: out.Value, AfterUnknown: false, BeforeSensitive: out.Sensitive, AfterSensitive: out.Sensitive}
	var n *diff.Node
	if t, err := ctyjson.UnmarshalType(out.Type); err == nil {
		n = diff.ForTyped(c, t)
	} else {
		n = diff.ForOutput(c)
	}
	var b Buf
	b.WriteString(name + " = ")
	Node(&b, n, 0, stateOpts)
	return b.String()
}

// StateText writes a state (`tofu show -json STATEFILE`) exactly as
// `tofu show -no-color` prints it, given the provider schemas; resources
// are streamed, one in memory at a time.
func StateText(w io.Writer, path string, o review.PlanOptions) error {
	o = o.ForInput(path)
	// The first pass checks the document and the schemas before anything
	// is printed.
	st, err := o.Files.ReadState(path, &tofujson.StateVisitor{Resource: func(r *tofujson.StateResource) error {
		if o.Schemas == nil {
			return nil
		}
		_, err := o.SchemaFor(&tofujson.ResourceChange{Address: r.Address, Mode: r.Mode, Type: r.Type, ProviderName: r.ProviderName}, nil)
		return err
	}})
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	empty := st.Resources == 0 && st.ChildModules == 0 && len(st.Outputs) == 0
	if o.Schemas == nil && !empty {
		bw.WriteString(review.ApproximateNote(o.Flavor) + "\n")
	}
	if st.NewerThanRenderer() || (o.Schemas != nil && o.Schemas.NewerThanRenderer()) {
		bw.WriteString(words(o.Flavor).stateVersionWarning)
	}
	if empty {
		bw.WriteString(msgStateEmpty)
		return bw.Flush()
	}
	// OpenTofu passes "first" down into child modules by value: a
	// module's changes to it do not reach its siblings.
	first := true
	var stack []bool
	var resourcesSeen []bool
	_, err = o.Files.ReadState(path, &tofujson.StateVisitor{
		Enter: func() {
			stack = append(stack, first)
			resourcesSeen = append(resourcesSeen, false)
		},
		Leave: func() {
			first = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			resourcesSeen = resourcesSeen[:len(resourcesSeen)-1]
		},
		Resource: func(r *tofujson.StateResource) error {
			if !resourcesSeen[len(resourcesSeen)-1] {
				resourcesSeen[len(resourcesSeen)-1] = true
				if !first {
					bw.WriteString("\n")
				}
			}
			if !first {
				bw.WriteString("\n")
			}
			first = false
			text, err := StateResourceText(r, o)
			if err != nil {
				return err
			}
			bw.WriteString(text + "\n")
			return nil
		},
	})
	if err != nil {
		return err
	}
	if len(st.Outputs) > 0 {
		bw.WriteString("\n\nOutputs:\n\n")
		for _, name := range slices.Sorted(maps.Keys(st.Outputs)) {
			bw.WriteString(StateOutputText(name, st.Outputs[name]) + "\n")
		}
	}
	return bw.Flush()
}

// ModuleOf is the module part of a resource address ("" for the root).
func ModuleOf(address string) string {
	parts := splitAddress(address)
	var mod []string
	for i := 0; i+1 < len(parts); i += 2 {
		if parts[i] != "module" {
			break
		}
		mod = append(mod, parts[i]+"."+parts[i+1])
	}
	return strings.Join(mod, ".")
}

// splitAddress splits an address at the dots outside brackets and quotes.
func splitAddress(a string) []string {
	var parts []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(a); i++ {
		switch c := a[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '.' && depth == 0:
			parts = append(parts, a[start:i])
			start = i + 1
		}
	}
	return append(parts, a[start:])
}
