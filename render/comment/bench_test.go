package comment

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/planpr/planpr/flavor"

	"github.com/planpr/planpr/render/review"
	txt "github.com/planpr/planpr/render/text"

	"github.com/planpr/planpr/render/internal/diff"
	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/summary"
	"github.com/planpr/planpr/render/tofujson"
)

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

// benchPlan generates (once) a plan with testdata/genplan: 1,000 resource
// changes, or as many as PLANPR_BENCH_N says.
func benchPlan(b *testing.B) (plan string, schemas *tofujson.Schemas) {
	b.Helper()
	if p := os.Getenv("PLANPR_BENCH_PLAN"); p != "" { // a plan of one's own, without schemas
		return p, nil
	}
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "planpr-bench-")
		if benchErr == nil {
			n := cmp.Or(os.Getenv("PLANPR_BENCH_N"), "1000")
			out, err := exec.Command("go", "run", "../../testdata/genplan", "-n", n, "-o", benchDir).CombinedOutput()
			if err != nil {
				benchErr = &tofujson.InputError{File: "genplan", Msg: string(out)}
			}
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	s, err := tofujson.ReadSchemasFile(filepath.Join(benchDir, "schemas.json"))
	if err != nil {
		b.Fatal(err)
	}
	return filepath.Join(benchDir, "plan.json"), s
}

func sizeOf(b *testing.B, path string) {
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
}

// BenchmarkDecode reads every resource change, values decoded.
func BenchmarkDecode(b *testing.B) {
	plan, _ := benchPlan(b)
	sizeOf(b, plan)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tofujson.ReadPlanFile(plan, func(string, *tofujson.ResourceChange) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeLazy reads every resource change, values left raw.
func BenchmarkDecodeLazy(b *testing.B) {
	plan, _ := benchPlan(b)
	sizeOf(b, plan)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tofujson.ReadPlan(plan, tofujson.ReadOptions{Lazy: true}, func(string, *tofujson.ResourceChange) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

type decoded struct {
	rc    tofujson.ResourceChange
	block *tofujson.Block
}

func decodeAll(b *testing.B, plan string, schemas *tofujson.Schemas) []decoded {
	var all []decoded
	o := review.PlanOptions{Schemas: schemas}
	_, err := tofujson.ReadPlanFile(plan, func(_ string, rc *tofujson.ResourceChange) error {
		block, err := o.SchemaFor(rc, nil)
		all = append(all, decoded{*rc, block})
		return err
	}, tofujson.SectionChanges)
	if err != nil {
		b.Fatal(err)
	}
	return all
}

// BenchmarkDiff computes the diff trees of 1,000 decoded resources.
func BenchmarkDiff(b *testing.B) {
	plan, schemas := benchPlan(b)
	all := decodeAll(b, plan, schemas)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i := range all {
			diff.ForResource(&all[i].rc.Change, all[i].block, diff.Always())
		}
	}
}

// BenchmarkRenderText walks 1,000 diff trees into OpenTofu's text.
func BenchmarkRenderText(b *testing.B) {
	plan, schemas := benchPlan(b)
	all := decodeAll(b, plan, schemas)
	nodes := make([]*diff.Node, len(all))
	for i := range all {
		nodes[i] = diff.ForResource(&all[i].rc.Change, all[i].block, diff.Always())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i := range all {
			action, _ := tofujson.ParseActions(all[i].rc.Change.Actions)
			txt.ResourceText(&all[i].rc, action, nodes[i], txt.CauseChange, flavor.OpenTofu)
		}
	}
}

// BenchmarkRenderMarkdownBlocks turns 1,000 resources' text into the
// comment's diff blocks, masked.
func BenchmarkRenderMarkdownBlocks(b *testing.B) {
	plan, schemas := benchPlan(b)
	all := decodeAll(b, plan, schemas)
	texts := make([]string, len(all))
	for i := range all {
		action, _ := tofujson.ParseActions(all[i].rc.Change.Actions)
		texts[i] = txt.ResourceText(&all[i].rc, action, diff.ForResource(&all[i].rc.Change, all[i].block, diff.Always()), txt.CauseChange, flavor.OpenTofu)
	}
	m := mask.NewMasker()
	for i := range 2000 {
		m.Add("secret-value-" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, t := range texts {
			m.Mask(md.DiffBlock(t))
		}
	}
}

// BenchmarkPlanText is `render --format text` on the whole plan.
func BenchmarkPlanText(b *testing.B) {
	plan, schemas := benchPlan(b)
	sizeOf(b, plan)
	b.ReportAllocs()
	for b.Loop() {
		if err := txt.PlanText(io.Discard, plan, review.PlanOptions{Schemas: schemas}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkComment is `render --format markdown` on the whole plan.
func BenchmarkComment(b *testing.B) {
	plan, schemas := benchPlan(b)
	sizeOf(b, plan)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Comment(io.Discard, []CommentPlan{{Path: plan}}, CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSummary is `render --format json` on the whole plan.
func BenchmarkSummary(b *testing.B) {
	plan, schemas := benchPlan(b)
	sizeOf(b, plan)
	b.ReportAllocs()
	for b.Loop() {
		if err := summary.Write(io.Discard, []CommentPlan{{Path: plan}}, review.PlanOptions{Schemas: schemas}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadSpans decodes 1,000 resource changes again from their
// spans, as the text path's workers do after the first pass.
func BenchmarkReadSpans(b *testing.B) {
	plan, schemas := benchPlan(b)
	var spans []tofujson.Span
	if _, err := review.ReadPlan(plan, review.PlanOptions{Schemas: schemas}, review.ScanOptions{SkipValues: true, Each: func(rc *tofujson.ResourceChange, _ review.ChangeSummary) error {
		spans = append(spans, rc.Span)
		return nil
	}}); err != nil {
		b.Fatal(err)
	}
	f, err := os.Open(plan)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.SetBytes(spans[len(spans)-1].End - spans[0].Start)
	b.ReportAllocs()
	cr := tofujson.NewChangeReader(plan, f)
	var rc tofujson.ResourceChange
	for b.Loop() {
		for _, s := range spans {
			if err := cr.Read(s, &rc); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkActionComments is what the Action renders: the comment and the
// job summary, in one read (Comments) or two (Comment twice).
func BenchmarkActionComments(b *testing.B) {
	plan, schemas := benchPlan(b)
	plans := []CommentPlan{{Path: plan}}
	short := CommentOptions{PlanOptions: review.PlanOptions{Schemas: schemas}, Marker: Marker{Key: "k"}}
	full := short
	full.MaxSize, full.MaxBytes = 1<<20, 1<<20-1
	b.Run("one-read", func(b *testing.B) {
		for b.Loop() {
			if _, err := Comments([]io.Writer{io.Discard, io.Discard}, plans, []CommentOptions{short, full}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("two-reads", func(b *testing.B) {
		for b.Loop() {
			for _, o := range []CommentOptions{short, full} {
				if _, err := Comment(io.Discard, plans, o); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkCommentOneHugeDiff is the comment of one resource whose diff
// is far larger than any comment (a 4 MB file's content rewritten, a list
// of 40,000 items): it cannot be shown, and is not laid out to find that.
func BenchmarkCommentOneHugeDiff(b *testing.B) {
	var items strings.Builder
	for i := range 40000 {
		fmt.Fprintf(&items, `"item-%d",`, i)
	}
	list := strings.TrimSuffix(items.String(), ",")
	value := func(c string) string {
		return fmt.Sprintf(`{"id":"a","items":[%s],"content":"%s"}`, list, strings.Repeat(c+`\n`, 2<<20))
	}
	plan := filepath.Join(b.TempDir(), "plan.json")
	doc := `{"format_version":"1.2","resource_changes":[{"address":"local_file.big","mode":"managed","type":"local_file","name":"big",` +
		`"provider_name":"registry.opentofu.org/hashicorp/local","change":{"actions":["update"],"before":` + value("a") + `,"after":` + value("b") +
		`,"after_unknown":{},"before_sensitive":{},"after_sensitive":{}}}]}`
	if err := os.WriteFile(plan, []byte(doc), 0o644); err != nil {
		b.Fatal(err)
	}
	sizeOf(b, plan)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Comment(io.Discard, []CommentPlan{{Path: plan}}, CommentOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
