package text

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/planpr/planpr/flavor"

	"github.com/planpr/planpr/render/review"

	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/tofujson"
)

// horizontalRule is OpenTofu's rule line at 78 columns.
var horizontalRule = strings.Repeat("─", 77)

var legend = []struct {
	action diff.Action
	line   string
}{
	{diff.Create, "  + create"},
	{diff.Update, "  ~ update in-place (current -> planned)"},
	{diff.Delete, "  - destroy"},
	{diff.DeleteThenCreate, "-/+ destroy and then create replacement"},
	{diff.CreateThenDelete, "+/- create replacement and then destroy"},
	{diff.Read, " <= read (data resources)"},
	{diff.ForgetThenCreate, "./+ forget and then create replacement"},
	{diff.Forget, "  . forget"},
}

// PlanText writes the plan at path exactly as `tofu show -no-color` prints
// it (given the plan's schemas). It reads the file more than once so that no
// more than a few resources are held in memory at a time.
func PlanText(w io.Writer, path string, o review.PlanOptions) error {
	pt, err := PreparePlanText(path, o)
	if err != nil {
		return err
	}
	return pt.Write(w)
}

// PreparedPlan is a plan read once and checked, ready to print. Its
// resources are already being rendered; call Write, or Close to give up.
type PreparedPlan struct {
	o    review.PlanOptions
	scan *review.Scan
	pipe *textPipeline
}

// PreparePlanText reads and checks the plan (the first pass), so that
// every input can be checked before anything is printed. The changes it
// will print start rendering on the other cores as the pass meets them.
func PreparePlanText(path string, o review.PlanOptions) (*PreparedPlan, error) {
	if o.Mode == "" {
		o.Mode = review.ModeNormal
	}
	o = o.ForInput(path)
	pipe, err := newTextPipeline(path, o)
	if err != nil {
		return nil, err
	}
	scan, err := review.ReadPlan(path, o, review.ScanOptions{SkipValues: true, Each: func(rc *tofujson.ResourceChange, sum review.ChangeSummary) error {
		if sum.Shown() {
			pipe.add(rc.Span)
		}
		return nil
	}})
	if err != nil {
		pipe.stop()
		return nil, err
	}
	pipe.read(review.IndexConfiguration(scan.Plan.Configuration))
	return &PreparedPlan{o: o, scan: scan, pipe: pipe}, nil
}

// Write prints the plan, streaming its resources.
func (pt *PreparedPlan) Write(w io.Writer) error {
	defer pt.Close()
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := planText(bw, w, pt.o, pt.scan, pt.pipe); err != nil {
		return err
	}
	return bw.Flush()
}

// Close stops rendering a plan that will not be written; it is safe to
// call more than once, and after Write.
func (pt *PreparedPlan) Close() {
	pt.pipe.stop()
}

// planText writes the plan to w, and the resources' texts, which come in
// large pieces, straight to raw, which w writes to.
func planText(w *bufio.Writer, raw io.Writer, o review.PlanOptions, scan *review.Scan, pipe *textPipeline) error {
	var err error
	p := scan.Plan
	config := pipe.config
	m := words(o.Flavor)
	if o.Schemas == nil {
		w.WriteString(review.ApproximateNote(o.Flavor) + "\n")
	}
	if p.NewerThanRenderer() || (o.Schemas != nil && o.Schemas.NewerThanRenderer()) {
		w.WriteString(m.versionWarning)
	}

	outputs := OutputsText(p.OutputChanges, o.Flavor)
	outputsChanged := len(scan.ChangedOutputs()) > 0

	var drift string
	if scan.HasDrift {
		drift, err = driftText(o, scan, outputsChanged, config)
		if err != nil {
			return err
		}
	}
	haveRefreshChanges := drift != ""
	w.WriteString(drift)

	counts, total, shown := scan.Tally()

	actionCount := len(p.ActionInvocations)
	if shown == 0 && outputs == "" && actionCount == 0 {
		if noChangesText(w, scan, o, haveRefreshChanges) {
			return nil
		}
	}
	if haveRefreshChanges {
		w.WriteString("\n" + horizontalRule + "\n")
	}
	deferred, err := deferredText(o, p, config)
	if err != nil {
		return err
	}
	if deferred != "" {
		w.WriteString(deferred + "\n" + horizontalRule + "\n")
	}
	if len(counts) > 0 {
		if o.Flavor.Terraform() && p.FormatVersion == "0.1" {
			// Terraform 0.12 to 0.14, whose plans are format 0.1, opened
			// the legend so.
			w.WriteString(msgLegendBefore015)
		} else {
			w.WriteString(m.legend)
		}
		for _, l := range legend {
			if line := m.legendLine(l.action, l.line); counts[l.action] > 0 && line != "" {
				w.WriteString(line + "\n")
			}
		}
	}
	if shown > 0 || actionCount > 0 {
		if err := pipe.failed(); err != nil {
			return err // nothing printed yet
		}
		if p.Errored {
			w.WriteString(m.actionsErrored)
		} else {
			w.WriteString(m.actions)
		}
		if err := pipe.writeTo(w, raw); err != nil {
			return err
		}
		w.WriteString(planLine(total, o.Flavor, actionCount))
	}
	if invoked := invokedActions(p); invoked != "" {
		w.WriteString("\n" + m.invoke + invoked + "\n")
	}
	if outputs != "" {
		w.WriteString("\nChanges to Outputs:\n" + outputs + "\n")
		if len(counts) == 0 {
			w.WriteString(m.outputsOnly)
		}
	}
	return nil
}

// noChangesText writes the "No changes." variants and reports whether the
// output is complete (some variants fall through to the rule below).
func noChangesText(w *bufio.Writer, scan *review.Scan, o review.PlanOptions, haveRefreshChanges bool) bool {
	p := scan.Plan
	m := words(o.Flavor)
	rule := func() {
		if haveRefreshChanges {
			w.WriteString("\n" + horizontalRule + "\n")
		}
	}
	switch {
	case p.Errored:
		rule()
		w.WriteString(m.planFailed)
		return false
	case len(p.DeferredChanges) > 0:
		rule()
		w.WriteString(msgNoCurrentChanges)
		return false
	case o.Mode == review.ModeRefreshOnly:
		if !haveRefreshChanges {
			w.WriteString(m.noChangesRO)
		}
		return true
	case o.Mode == review.ModeDestroy:
		rule()
		w.WriteString(m.noChangesDel)
		return false
	}
	rule()
	w.WriteString(m.noChanges)
	if haveRefreshChanges {
		// A plan that cannot be applied (nothing but drift) asks for a
		// refresh-only plan instead.
		if !scan.Applyable() {
			w.WriteString(m.driftRefreshCmd)
		} else {
			w.WriteString(m.driftApplyable)
		}
		return true
	}
	switch {
	case o.Flavor.Terraform():
		// Terraform's show says the ordinary words, -target or not.
		w.WriteString(m.compared)
	case o.Targeted:
		w.WriteString(m.targeted)
	case !scan.HasDrift:
		// `tofu show` renders a plan that cannot be applied with the
		// no-changes quality, which adds the closing paragraph unless the
		// plan recorded drift (shown or not).
		w.WriteString(m.compared)
	}
	return true
}

// writeChangeText writes one resource's text as the plan shows it, between
// blank lines, or nothing when OpenTofu does not show it.
func writeChangeText(b *Buf, rc *tofujson.ResourceChange, o review.PlanOptions, config *review.ConfigIndex, nodes *diff.Arena) error {
	action, _ := tofujson.ParseActions(rc.Change.Actions)
	s := review.ChangeSummary{Action: action, Moved: rc.Moved(), Importing: rc.Importing(), Mode: rc.Mode}
	if !s.Shown() {
		return nil
	}
	if err := rc.Change.Decode(); err != nil {
		return err
	}
	block, err := o.SchemaFor(rc, config)
	if err != nil {
		return err
	}
	var tree *diff.Node
	shown := ShownChange(rc, action, o.Flavor)
	if HidesUnchanged(rc, action, o.Flavor) {
		tree = nodes.ForResourceHidingUnchanged(shown, block, diff.Always(), IsImportant)
	} else {
		tree = nodes.ForResource(shown, block, diff.Always())
	}
	b.WriteByte('\n')
	WriteResource(b, rc, action, tree, CauseChange, o.Flavor)
	b.WriteByte('\n')
	nodes.Reset() // the text is all that is kept of the tree
	return nil
}

// DriftEntry is one drifted resource as OpenTofu would show it.
type DriftEntry struct {
	Address string
	Action  diff.Action
	Text    string
}

// DriftEntries are the drifted resources OpenTofu would show, or none when
// it would show no drift section at all.
func DriftEntries(o review.PlanOptions, scan *review.Scan, outputsChanged bool, config *review.ConfigIndex) ([]DriftEntry, error) {
	refreshOnly := o.Mode == review.ModeRefreshOnly
	var entries []DriftEntry
	for i := range scan.Drift {
		rc := &scan.Drift[i]
		action, _ := tofujson.ParseActions(rc.Change.Actions)
		if err := rc.Change.Decode(); err != nil {
			return nil, err
		}
		block, err := o.SchemaFor(rc, config) // inferred from the values without schemas
		if err != nil {
			return nil, err
		}
		relevant := diff.Always()
		if !refreshOnly {
			if relevant = diff.Relevant(scan.Plan.RelevantAttributes, rc.Address); relevant == nil {
				continue
			}
		}
		n := diff.For(o.Flavor).ForResource(&rc.Change, block, relevant)
		if !refreshOnly && n.Action == diff.NoOp {
			continue
		}
		entries = append(entries, DriftEntry{Address: rc.Address, Action: action, Text: ResourceText(rc, action, n, CauseDrift, o.Flavor)})
	}
	if len(entries) == 0 {
		return nil, nil
	}
	if !refreshOnly && scan.ChangesEmpty && !outputsChanged {
		return nil, nil
	}
	return entries, nil
}

func driftText(o review.PlanOptions, scan *review.Scan, outputsChanged bool, config *review.ConfigIndex) (string, error) {
	entries, err := DriftEntries(o, scan, outputsChanged, config)
	if err != nil || len(entries) == 0 {
		return "", err
	}
	var b strings.Builder
	m := words(o.Flavor)
	b.WriteString(m.driftHeader)
	for _, e := range entries {
		if e.Text != "" {
			b.WriteString("\n" + e.Text + "\n")
		}
	}
	if o.Mode == review.ModeRefreshOnly {
		b.WriteString(m.driftRefresh)
	} else {
		b.WriteString(m.driftOther)
	}
	return b.String(), nil
}

// NamesAndWidth sorts a map's names and measures the widest as shown.
func NamesAndWidth[T any](m map[string]T) ([]string, int) {
	names := slices.Sorted(maps.Keys(m))
	width := 0
	for _, name := range names {
		width = max(width, len(AttrName(name)))
	}
	return names, width
}

// OutputsText renders the changed outputs, "" when none changed.
func OutputsText(changes map[string]tofujson.Change, f flavor.Flavor) string {
	names, width := NamesAndWidth(changes)
	var lines []string
	for _, name := range names {
		c := changes[name]
		n := diff.For(f).ForOutput(&c)
		if n.Action == diff.NoOp {
			continue
		}
		var b Buf
		fmt.Fprintf(&b, "%s %-*s = ", Symbol(n.Action), width, AttrName(name))
		Node(&b, n, 0, Opts{})
		lines = append(lines, b.String())
	}
	return strings.Join(lines, "\n")
}

func planLine(c review.Counts, f flavor.Flavor, actions int) string {
	if f.Terraform() {
		c.Forget = 0 // Terraform's line does not count what it forgets
	}
	line := countsLine(c)
	if actions > 0 {
		line = strings.TrimSuffix(line, "\n") + fmt.Sprintf(" Actions: %d to invoke.\n", actions)
	}
	return line
}

func countsLine(c review.Counts) string { return "\nPlan: " + c.String() + ".\n" }
