package comment

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	txt "github.com/planpr/planpr/render/text"

	"github.com/planpr/planpr/render/internal/budget"
	"github.com/planpr/planpr/render/internal/words"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/tofujson"
)

// StateMarkdown writes a state as an inventory for a comment or summary:
// resources by module and type, outputs (sensitive ones masked), and each
// resource's attributes collapsed, under the plan comment's safety and
// size rules.
func StateMarkdown(w io.Writer, path string, o CommentOptions) (*CommentResult, error) {
	if o.MaxSize <= 0 {
		o.MaxSize = GitHubMaxComment
	}
	masker := mask.NewMasker()
	var full budget.Buffer
	full.Limit = o.MaxSize
	type count struct{ module, typ string }
	counts := map[count]int{}
	var addresses []string
	marked := 0
	st, err := o.Files.ReadState(path, &tofujson.StateVisitor{Resource: func(r *tofujson.StateResource) error {
		tofujson.CollectMarked(r.Values, r.SensitiveValues, masker.AddSecret)
		typ := r.Type
		if r.Mode != "managed" {
			typ = "data." + typ
		}
		counts[count{txt.ModuleOf(r.Address), typ}]++
		addresses = append(addresses, r.Address)
		if full.Overflow {
			return nil
		}
		text, err := txt.StateResourceText(r, o.PlanOptions)
		if err != nil {
			return err
		}
		marked += strings.Count(text, mask.Masked)
		address := r.Address
		full.Add(&budget.Item{Summary: func(m *mask.Masker) string { return safeHTML(m, address) }, Text: text, Wrap: hclFence}, budget.Estimate(text, address))
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
	full.Finish(masker)
	var outputs strings.Builder
	for _, name := range slices.Sorted(maps.Keys(st.Outputs)) {
		outputs.WriteString(txt.StateOutputText(name, st.Outputs[name]) + "\n")
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
		fmt.Fprintf(&b, "## 📦 %s: state — %s in %s, %s\n\n", md.Text(title), words.Count(st.Resources, "resource"), words.Count(len(modules), "module"), words.Count(len(st.Outputs), "output"))
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
			b.WriteString("#### Outputs\n\n" + hclFence(outputsText) + "\n")
		}
		return b.String()
	}
	foot := func(masked int) string {
		parts := []string{"planpr " + md.Text(cmp.Or(o.Version, "dev"))}
		if masked > 0 {
			parts = append(parts, words.Count(masked, "sensitive value")+" masked")
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
			if full.Overflow {
				continue
			}
			if len(addresses) > 0 {
				body.WriteString("#### Resources\n\n" + full.String())
			}
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

// hclFence fences a state resource's (or the outputs') text.
func hclFence(text string) string { return md.Fence(md.Visible(text), "hcl") }
