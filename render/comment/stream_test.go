package comment

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	txt "github.com/planpr/planpr/render/text"
	"os"
	"path/filepath"
	"strings"
	"testing"

	safemd "github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/review"

	"github.com/planpr/planpr/render/summary"
	"github.com/planpr/planpr/render/tofujson"
	"github.com/planpr/planpr/render/tofujson/uistream"
)

func TestReadStreamPlanMessages(t *testing.T) {
	s, err := review.ReadStream(nil, "testdata/streams/plan.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if s.Info.Version != "1.10.0" || s.Info.UI != "1.2" || s.Info.Truncated != 0 {
		t.Errorf("info = %+v", s.Info)
	}
	if c := s.Changes; c == nil || c.Add != 2 || c.Change != 1 || c.Remove != 2 || c.Operation != "plan" {
		t.Errorf("change summary = %+v", c)
	}
	if len(s.Planned) != 5 || s.Planned[1].Action != "replace" || s.Planned[1].Reason != "cannot_update" || s.Planned[3].Previous != "aws_s3_bucket.renamed" {
		t.Errorf("planned = %+v", s.Planned)
	}
	if len(s.Drift) != 1 || s.Drift[0].Address != "aws_instance.web" {
		t.Errorf("drift = %+v", s.Drift)
	}
	if len(s.Diagnostics) != 1 || s.Diagnostics[0].Snippet == nil || s.Diagnostics[0].Range.Start.Line != 12 {
		t.Errorf("diagnostics = %+v", s.Diagnostics)
	}
	if !s.Outputs["db_password"].Sensitive || s.Outputs["endpoint"].Action != "update" {
		t.Errorf("outputs = %+v", s.Outputs)
	}
}

func TestReadStreamApplyMessages(t *testing.T) {
	s, err := review.ReadStream(nil, "testdata/streams/apply.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Applies) != 2 {
		t.Fatalf("applies = %+v", s.Applies)
	}
	web, db := s.Applies[0], s.Applies[1]
	if web.Status != "complete" || web.IDValue != "i-1" || web.Elapsed != 12 || len(web.Provisioners) != 1 || len(web.Provisioners[0].Output) != 3 {
		t.Errorf("web = %+v", web)
	}
	if db.Status != "errored" || db.Action != "delete" || !db.Provisioners[0].Errored || len(db.Diagnostics) != 1 {
		t.Errorf("db = %+v (a diagnostic with its address belongs to the resource)", db)
	}
	if len(s.Other) != 1 || !strings.Contains(s.Other[0], "ephemeral.random_password.p") {
		t.Errorf("unknown message types should keep their text: %v", s.Other)
	}
	if !s.Failed() {
		t.Error("an errored apply is a failure")
	}
}

func TestReadStreamTestMessages(t *testing.T) {
	s, err := review.ReadStream(nil, "testdata/streams/test.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tests) != 2 || s.Tests[0].Status != "fail" || len(s.Tests[0].Runs) != 2 {
		t.Fatalf("tests = %+v", s.Tests)
	}
	check := s.Tests[0].Runs[1]
	if check.Name != "check_name" || check.Status != "fail" || len(check.Diagnostics) != 1 {
		t.Errorf("check_name = %+v", check)
	}
	if ts := s.TestSummary; ts == nil || ts.Passed != 1 || ts.Failed != 1 || ts.Skipped != 1 {
		t.Errorf("summary = %+v", ts)
	}
	if len(s.Cleanup) != 1 || s.Cleanup[0] != "aws_s3_bucket.b" {
		t.Errorf("cleanup = %v", s.Cleanup)
	}
}

func TestReadStreamBadInput(t *testing.T) {
	for _, tt := range []struct {
		file, want string
		line       int
	}{
		{"ui2.jsonl", `unsupported UI stream version "2.0": planpr reads ui 1.x`, 1},
		{"garbage.jsonl", `not a JSON message: "Error: something went wrong"`, 3},
	} {
		_, err := review.ReadStream(nil, "testdata/streams/"+tt.file)
		var ie *tofujson.InputError
		if !errors.As(err, &ie) || !strings.Contains(ie.Msg, tt.want) || ie.Line != tt.line {
			t.Errorf("%s: err = %v, want line %d: %s", tt.file, err, tt.line, tt.want)
		}
	}
	s, err := review.ReadStream(nil, "testdata/streams/truncated.jsonl")
	if err != nil || s.Info.Truncated != 4 {
		t.Errorf("a truncated last line: %v, %+v", err, s)
	}
	path := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(path, []byte(`{"type":"log","@message":"hi"}`+"\n"), 0o644)
	if _, err := review.ReadStream(nil, path); err == nil || !strings.Contains(err.Error(), `starts with a "version" message`) {
		t.Errorf("err = %v", err)
	}
}

func TestStreamGolden(t *testing.T) {
	for name, plans := range map[string][]CommentPlan{
		"stream-plan.md":       {{Name: "web", Streams: []string{"testdata/streams/plan.jsonl"}}},
		"stream-apply-test.md": {{Name: "web", Streams: []string{"testdata/streams/apply.jsonl", "testdata/streams/test.jsonl"}}},
		"stream-with-plan.md":  {{Name: "web", Path: "../../testdata/example/plan.json", Streams: []string{"testdata/streams/plan.jsonl"}}},
	} {
		t.Run(name, func(t *testing.T) {
			md, _ := comment(t, plans, CommentOptions{PlanOptions: review.PlanOptions{Schemas: exampleSchemas(t)}, Marker: Marker{Key: "k"}, Version: "test"})
			golden(t, name, []byte(md))
		})
	}
}

// TestStreamSensitiveOutputs: the stream carries sensitive outputs in
// clear; no format may show them.
func TestStreamSensitiveOutputs(t *testing.T) {
	plans := []CommentPlan{{Name: "web", Streams: []string{"testdata/streams/apply.jsonl"}}}
	var md, js, plain bytes.Buffer
	if _, err := Comment(&md, plans, CommentOptions{Marker: Marker{Key: "k"}}); err != nil {
		t.Fatal(err)
	}
	if err := summary.Write(&js, plans, review.PlanOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := txt.StreamText(&plain, nil, "testdata/streams/apply.jsonl"); !errors.Is(err, txt.ErrStreamFailed) { // its apply failed
		t.Fatalf("a failed apply's text: %v", err)
	}
	for name, out := range map[string]string{"markdown": md.String(), "json": js.String(), "text": plain.String()} {
		if strings.Contains(out, "s3cr3t-db-pass") || strings.Contains(out, "ghp_x1Y2") || strings.Contains(out, "n3st3d-t0ken-77") {
			t.Errorf("%s shows a secret", name)
		}
	}
	if !strings.Contains(md.String(), "db_password = (sensitive value)") {
		t.Error("the sensitive output is not shown as masked")
	}
}

// TestStreamCorpus renders every real stream in the conformance corpus and
// checks the counts against the stream's own change_summary and
// test_summary.
func TestStreamCorpus(t *testing.T) {
	paths, _ := filepath.Glob("../../../shared/conformance/uistreams/*")
	if len(paths) == 0 {
		t.Skip("../shared not found: the conformance corpus is an extra; the project's own fixtures are tested without it")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if !uistream.IsStream(nil, path) {
				t.Fatal("not recognised as a stream")
			}
			plans := []CommentPlan{{Name: "x", Streams: []string{path}}}
			var md, js, plain bytes.Buffer
			res, err := Comment(&md, plans, CommentOptions{Marker: Marker{Key: "k"}})
			if err != nil {
				t.Fatal(err)
			}
			if err := summary.Write(&js, plans, review.PlanOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := txt.StreamText(&plain, nil, path); err != nil && !errors.Is(err, txt.ErrStreamFailed) {
				t.Fatal(err)
			}
			var want *uistream.ChangeSummary
			var diags []string
			uistream.ReadStreamFile(nil, path, func(m *uistream.Message) error {
				if m.Type == "change_summary" {
					want = m.Changes
				}
				if m.Type == "diagnostic" {
					diags = append(diags, m.Diagnostic.Summary)
				}
				return nil
			})
			if want != nil && (res.Counts.Add != want.Add || res.Counts.Change != want.Change || res.Counts.Destroy != want.Remove) {
				t.Errorf("counts %+v, the stream says %+v", res.Counts, want)
			}
			var doc struct {
				Plans []struct {
					Streams []struct {
						ChangeSummary *uistream.ChangeSummary `json:"change_summary"`
					} `json:"streams"`
				} `json:"plans"`
			}
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if got := doc.Plans[0].Streams[0].ChangeSummary; want != nil && *got != *want {
				t.Errorf("json change_summary %+v, want %+v", got, want)
			}
			for _, d := range diags {
				if !strings.Contains(md.String(), safemd.Text(d)) {
					t.Errorf("diagnostic %q not shown", d)
				}
			}
		})
	}
}

// TestFailedPlanErrorsOnce: a plan that failed on its configuration says
// so in its title, and each error appears once, in the CAUTION box, linked
// to its line at the commit (a file outside the repository is named, not
// linked) — not again in the log section or the warning box.
func TestFailedPlanErrorsOnce(t *testing.T) {
	plans := []CommentPlan{{Name: "prod", Root: "envs/prod", Streams: []string{"testdata/streams/config-error.jsonl"}}}
	md, res := comment(t, plans, CommentOptions{Marker: Marker{Key: "prod"}, Version: "test", SourceURL: "https://github.com/acme/infra/blob/0123abc"})
	golden(t, "stream-config-error.md", []byte(md))
	if !res.Errored || !strings.Contains(md, "## ❌ planpr: Plan failed\n") {
		t.Errorf("the title does not say the plan failed:\n%s", md)
	}
	for _, summary := range []string{"Unsupported argument", "Reference to undeclared module"} {
		if n := strings.Count(md, summary); n != 1 {
			t.Errorf("%q appears %d times, want once", summary, n)
		}
	}
	if !strings.Contains(md, "[`main.tf` line 14](https://github.com/acme/infra/blob/0123abc/envs/prod/main.tf#L14)") ||
		!strings.Contains(md, "[`../modules/app/outputs.tf` line 3](https://github.com/acme/infra/blob/0123abc/envs/modules/app/outputs.tf#L3)") {
		t.Errorf("errors not linked to their lines:\n%s", md)
	}
	if strings.Contains(md, "#### Log") {
		t.Errorf("a log section that repeats the errors:\n%s", md)
	}
}

// A stream alone names its planned changes grouped as a plan's listing
// does — 10,000 deletions in one range — and the warning box says they are
// all below only when they are: 400 resources of as many types pass the
// list's 300 lines.
func TestStreamPlannedChangesGrouped(t *testing.T) {
	stream := func(addresses func(i int) string, n int) string {
		lines := []string{`{"@level":"info","@message":"OpenTofu 1.9.0","@module":"tofu.ui","type":"version","tofu":"1.9.0","ui":"1.2"}`}
		for i := range n {
			lines = append(lines, fmt.Sprintf(`{"@level":"info","@message":"x","@module":"tofu.ui","type":"planned_change","change":{"resource":{"addr":%q,"module":"","resource":%q,"implied_provider":"acme","resource_type":"acme_thing","resource_name":"x"},"action":"delete"}}`, addresses(i), addresses(i)))
		}
		path := filepath.Join(t.TempDir(), "plan.jsonl")
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	ranged := stream(func(i int) string { return fmt.Sprintf("acme_thing.x[%d]", i) }, 10000)
	md, _ := comment(t, []CommentPlan{{Streams: []string{ranged}}}, CommentOptions{Marker: Marker{Key: "s"}, Version: "test", FullText: "the job summary"})
	if !strings.Contains(md, "\n- delete `acme_thing.x[0..9999]` (10000)\n") || !strings.Contains(md, "; all are named below") {
		t.Errorf("10,000 deletions are not named in one range, or the box does not say so:\n%.3000s", md)
	}
	distinct := stream(func(i int) string { return fmt.Sprintf("acme_type_%d.x", i) }, 400)
	md, _ = comment(t, []CommentPlan{{Streams: []string{distinct}}}, CommentOptions{Marker: Marker{Key: "s"}, Version: "test", FullText: "the job summary"})
	if !strings.Contains(md, "\n- … and 100 more planned changes\n") || strings.Contains(md, "all are named below") || !strings.Contains(md, "; all are in the job summary") {
		t.Errorf("400 deletions of distinct types: the list should name 300, count 100, and the box say where the rest are:\n%.3000s", md)
	}
}

// TestIsApplyByTheStreamsMessages: an apply is told by its messages, even
// one that failed before its summary (a real Terraform stream whose only
// change_summary is its plan's); a plan's stream is not one.
func TestIsApplyByTheStreamsMessages(t *testing.T) {
	for path, want := range map[string]bool{
		"testdata/streams/apply.jsonl":                      true,
		"../../testdata/terraform/failed-apply/apply.jsonl": true,
		"testdata/streams/plan.jsonl":                       false,
		"../../testdata/example/plan.jsonl":                 false,
	} {
		got, err := review.IsApply(nil, path)
		if err != nil || got != want {
			t.Errorf("%s: %v %v, want %v", path, got, err, want)
		}
	}
}
