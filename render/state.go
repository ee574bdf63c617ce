package render

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/planpr/planpr/render/review"
	txt "github.com/planpr/planpr/render/text"

	"github.com/planpr/planpr/render/diff"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/tofujson"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

const (
	msgStateVersionWarning = "\nWarning: This state was retrieved using a different version of OpenTofu, the\nstate presented here maybe missing representations of recent features.\n"
	msgStateEmpty          = "The state file is empty. No resources are represented.\n"
)

// stateOpts are how OpenTofu shows a state: everything, no symbols.
var stateOpts = txt.Opts{ShowUnchanged: true, HideSymbols: true}

// StateResourceText is one resource of a state as `tofu show` prints it.
func StateResourceText(r *tofujson.StateResource, o review.PlanOptions) (string, error) {
	rc := &tofujson.ResourceChange{Address: r.Address, Mode: r.Mode, Type: r.Type, Name: r.Name, ProviderName: r.ProviderName,
		Change: tofujson.Change{Before: r.Values, After: r.Values, AfterUnknown: false, BeforeSensitive: r.SensitiveValues, AfterSensitive: r.SensitiveValues}}
	block, err := o.SchemaFor(rc, nil)
	if err != nil {
		return "", err
	}
	var b txt.Buf
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
	txt.Node(&b, diff.ForResource(&rc.Change, block, diff.Always()), 0, stateOpts)
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
	var b txt.Buf
	b.WriteString(name + " = ")
	txt.Node(&b, n, 0, stateOpts)
	return b.String()
}

// StateText writes a state (`tofu show -json STATEFILE`) exactly as
// `tofu show -no-color` prints it, given the provider schemas; resources
// are streamed, one in memory at a time.
func StateText(w io.Writer, path string, o review.PlanOptions) error {
	// The first pass checks the document and the schemas before anything
	// is printed.
	st, err := tofujson.ReadStateFile(path, &tofujson.StateVisitor{Resource: func(r *tofujson.StateResource) error {
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
	if o.Schemas == nil {
		bw.WriteString(review.ApproximateNote + "\n")
	}
	if st.NewerThanRenderer() || (o.Schemas != nil && o.Schemas.NewerThanRenderer()) {
		bw.WriteString(msgStateVersionWarning)
	}
	if st.Resources == 0 && st.ChildModules == 0 && len(st.Outputs) == 0 {
		bw.WriteString(msgStateEmpty)
		return bw.Flush()
	}
	// OpenTofu passes "first" down into child modules by value: a
	// module's changes to it do not reach its siblings.
	first := true
	var stack []bool
	var resourcesSeen []bool
	_, err = tofujson.ReadStateFile(path, &tofujson.StateVisitor{
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

// StateMarkdown writes a state as an inventory for a comment or summary:
// resources by module and type, outputs (sensitive ones masked), and each
// resource's attributes collapsed, under the plan comment's safety and
// size rules.
func StateMarkdown(w io.Writer, path string, o CommentOptions) (*CommentResult, error) {
	if o.MaxSize <= 0 {
		o.MaxSize = GitHubMaxComment
	}
	masker := mask.NewMasker()
	var full budgetBuffer
	full.limit = o.MaxSize
	type count struct{ module, typ string }
	counts := map[count]int{}
	var addresses []string
	marked := 0
	st, err := tofujson.ReadStateFile(path, &tofujson.StateVisitor{Resource: func(r *tofujson.StateResource) error {
		tofujson.CollectMarked(r.Values, r.SensitiveValues, masker.AddSecret)
		typ := r.Type
		if r.Mode != "managed" {
			typ = "data." + typ
		}
		counts[count{ModuleOf(r.Address), typ}]++
		addresses = append(addresses, r.Address)
		if full.overflow {
			return nil
		}
		text, err := StateResourceText(r, o.PlanOptions)
		if err != nil {
			return err
		}
		marked += strings.Count(text, mask.Masked)
		address := r.Address
		full.add(diffItem{summary: func(m *mask.Masker) string { return safeHTML(m, address) }, text: text, wrap: hclFence}, detailsEstimate(text, address))
		return nil
	}})
	if err != nil {
		return nil, err
	}
	for _, out := range st.Outputs {
		if out.Sensitive {
			masker.AddValue(out.Value)
		}
	}
	full.finish(masker)
	var outputs strings.Builder
	for _, name := range slices.Sorted(maps.Keys(st.Outputs)) {
		outputs.WriteString(StateOutputText(name, st.Outputs[name]) + "\n")
	}
	outputsText := masker.Mask(outputs.String())
	marked += strings.Count(outputs.String(), mask.Masked)

	keys := make([]count, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].module != keys[j].module {
			return keys[i].module < keys[j].module
		}
		return keys[i].typ < keys[j].typ
	})
	title := o.Title
	if title == "" {
		title = "planpr"
	}
	modules := map[string]bool{}
	for _, k := range keys {
		modules[k.module] = true
	}
	head := func() string {
		var b strings.Builder
		b.WriteString(o.Marker.String() + "\n")
		fmt.Fprintf(&b, "## 📦 %s: state — %s in %s, %s\n\n", md.Text(title), plural(st.Resources, "resource"), plural(len(modules), "module"), plural(len(st.Outputs), "output"))
		if st.Resources == 0 && len(st.Outputs) == 0 {
			b.WriteString("The state file is empty. No resources are represented.\n\n")
		}
		if len(keys) > 0 {
			b.WriteString("| module | type | resources |\n| --- | --- | ---: |\n")
			for _, k := range keys {
				mod := "(root)"
				if k.module != "" {
					mod = tableCode(masker, k.module)
				}
				fmt.Fprintf(&b, "| %s | %s | %d |\n", mod, tableCode(masker, k.typ), counts[k])
			}
			b.WriteString("\n")
		}
		if outputsText != "" {
			b.WriteString("#### Outputs\n\n" + md.Fence(md.Visible(outputsText), "hcl") + "\n")
		}
		return b.String()
	}
	foot := func(masked int) string {
		parts := []string{"planpr " + md.Text(cmp.Or(o.Version, "dev"))}
		if masked > 0 {
			parts = append(parts, plural(masked, "sensitive value")+" masked")
		}
		src := md.Text(path)
		if st.TerraformVersion != "" {
			src += " (OpenTofu/Terraform " + md.Text(st.TerraformVersion) + ")"
		}
		return "---\n<sub>" + strings.Join(append(parts, src), " · ") + "</sub>\n"
	}
	res := &CommentResult{}
	masked := marked + masker.Count
	var text string
	for level := LevelFull; level <= LevelSummary; level++ {
		var body strings.Builder
		switch level {
		case LevelFull:
			if full.overflow {
				continue
			}
			body.WriteString("#### Resources\n\n" + full.String())
		case LevelReduced:
			fmt.Fprintf(&body, "> [!NOTE]\n> Shortened to fit %s: the attributes are left out.\n\n#### Resources\n\n", limitText(o.MaxSize))
			for i, a := range addresses {
				if i == 1000 {
					fmt.Fprintf(&body, "- … and %d more\n", len(addresses)-i)
					break
				}
				body.WriteString("- " + safeCode(masker, a) + "\n")
			}
			body.WriteString("\n")
		default:
			fmt.Fprintf(&body, "> [!NOTE]\n> Shortened to fit %s: the resources are left out.\n\n", limitText(o.MaxSize))
		}
		text = head() + body.String() + foot(masked)
		res.Level = level
		if o.fits(text) {
			break
		}
	}
	if !o.fits(text) {
		text = o.cut(text)
	}
	res.Size, res.Masked = len(text), masked
	_, err = io.WriteString(w, text)
	return res, err
}

// hclFence fences a state resource's text.
func hclFence(text string) string { return md.Fence(md.Visible(text), "hcl") }
