package tofujson

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"

	"github.com/planpr/planpr/render/tofujson/internal/jsontest"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	return jsontest.Write(t, name, content)
}

const minimalPlan = `{"format_version":"1.2","terraform_version":"1.9.0",
 "resource_drift":[{"address":"a.b","mode":"managed","type":"a","name":"b","provider_name":"p","change":{"actions":["update"],"before":{"x":1},"after":{"x":2}}}],
 "resource_changes":[
  {"address":"a.c","mode":"managed","type":"a","name":"c","provider_name":"p","change":{"actions":["create"],"before":null,"after":{"n":1.50}}},
  {"address":"a.d","mode":"managed","type":"a","name":"d","provider_name":"p","change":{"actions":["delete","create"],"before":{},"after":{}}, "action_reason":"replace_because_tainted"}],
 "output_changes":{"o":{"actions":["no-op"],"before":1,"after":1}},
 "relevant_attributes":[{"resource":"a.b","attribute":["x"]}],
 "errored":false,
 "unknown_future_field":{"deep":[1,2,{"x":null}]}}`

func TestReadPlanStreamsChangesInOrder(t *testing.T) {
	path := writeFile(t, "plan.json", minimalPlan)
	var got []string
	p, err := ReadPlanFile(path, func(section string, rc *ResourceChange) error {
		got = append(got, section+":"+rc.Address)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "resource_drift:a.b resource_changes:a.c resource_changes:a.d"
	if strings.Join(got, " ") != want {
		t.Errorf("visited %v, want %s", got, want)
	}
	if p.FormatVersion != "1.2" || len(p.RelevantAttributes) != 1 || p.OutputChanges["o"].Before == nil {
		t.Errorf("header not decoded: %+v", p)
	}
}

func TestReadPlanKeepsNumbersAsWritten(t *testing.T) {
	path := writeFile(t, "plan.json", minimalPlan)
	var n any
	_, err := ReadPlanFile(path, func(_ string, rc *ResourceChange) error {
		if rc.Address == "a.c" {
			n = rc.Change.After.(Object).Value("n")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := n.(interface{ String() string }); !ok || s.String() != "1.50" {
		t.Errorf("number read as %#v, want json.Number 1.50", n)
	}
}

func TestReadPlanOnlyNamedSections(t *testing.T) {
	path := writeFile(t, "plan.json", minimalPlan)
	var got []string
	_, err := ReadPlanFile(path, func(section string, rc *ResourceChange) error {
		got = append(got, rc.Address)
		return nil
	}, SectionDrift)
	if err != nil || strings.Join(got, ",") != "a.b" {
		t.Errorf("got %v, %v; want only the drift entry", got, err)
	}
}

// Each bad input must give one clear error naming the file, with a line
// and column where the problem has a position.
func TestReadPlanBadInput(t *testing.T) {
	tests := []struct {
		name, content, want string
		line, col           int
	}{
		{"empty", "  \n", "the file is empty", 0, 0},
		{"not json", "Plan: 1 to add\n", `not JSON: expected the output of ` + "`tofu show -json PLANFILE`", 1, 1},
		{"wrapper", "[command]/home/runner/bin/terraform-bin show -json tfplan\n{\"format_version\":\"1.2\"}\n", "GitHub Actions log lines", 1, 1},
		{"debug lines after", "{\"format_version\":\"1.2\",\"resource_changes\":[]}\n::debug::Terraform exited with code 0.\n", "unexpected text after the plan JSON", 2, 1},
		{"truncated", "{\"format_version\":\"1.2\",\"resource_changes\":[{\"address\":", "truncated JSON", 1, 56},
		{"syntax", "{\"format_version\":\"1.2\",\n \"resource_changes\": [}\n", "invalid JSON", 2, 23},
		{"state", `{"format_version":"1.0","terraform_version":"1.9.0","values":{"root_module":{}}}`, "this is a state, not a plan", 0, 0},
		{"version 2", `{"format_version":"2.0","resource_changes":[]}`, `unsupported plan format_version "2.0": planpr reads 0.x (Terraform 0.12 to 1.0) and 1.x`, 1, 19},
		{"no version", `{"resource_changes":[]}`, "no format_version", 0, 0},
		// A document without a plan's sections used to read as "no changes".
		{"schemas", `{"format_version":"1.0","provider_schemas":{}}`, "this is provider schemas (`tofu providers schema -json`), not a plan: pass it with --schemas", 0, 0},
		{"binary plan", "PK\x03\x04\x14\x00\b\x00tfplan", "a binary plan file (the zip `tofu plan -out` writes)", 1, 1},
		{"raw state", `{"version":4,"terraform_version":"1.9.0","serial":3,"lineage":"x","resources":[]}`, "a raw state file (terraform.tfstate)", 0, 0},
		{"redacted", `{"plan_format_version":"1.1","resource_changes":[]}`, "a Terraform Cloud redacted plan", 0, 0},
		{"stream without version", "{\"@level\":\"info\",\"@message\":\"x\"}\n{\"@level\":\"info\"}\n", "a UI stream (`tofu plan -json`) without its first", 0, 0},
		{"another document", `{"format_version":"1.0","name":"x"}`, `not a plan: it has "name"`, 0, 0},
		{"unknown action", `{"format_version":"1.2","resource_changes":[{"address":"a.b","change":{"actions":["explode"]}}]}`, `resource_changes a.b: unknown action list ["explode"]`, 1, 45},
		{"wrong type", `{"format_version":"1.2","resource_changes":[{"address":7}]}`, "invalid JSON for", 1, 0},
		{"syntax inside a resource", "{\"format_version\":\"1.2\",\n \"resource_changes\": [{\"address\": x}]}\n", "invalid character 'x'", 2, 35},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "bad.json", tt.content)
			_, err := ReadPlanFile(path, nil)
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an *InputError", err)
			}
			if ie.File != path || !strings.Contains(ie.Msg, tt.want) {
				t.Errorf("err = %q, want file %s and message containing %q", err, path, tt.want)
			}
			if tt.line != 0 && ie.Line != tt.line || tt.col != 0 && ie.Column != tt.col {
				t.Errorf("position %d:%d, want %d:%d (%v)", ie.Line, ie.Column, tt.line, tt.col, err)
			}
			if strings.Count(err.Error(), "\n") != 0 {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
}

func TestReadPlanMissingFile(t *testing.T) {
	_, err := ReadPlanFile(filepath.Join(t.TempDir(), "nope.json"), nil)
	if err == nil || !strings.Contains(err.Error(), "nope.json: no such file") {
		t.Errorf("err = %v", err)
	}
}

func TestParseActions(t *testing.T) {
	for list, want := range map[string]Action{
		"no-op": NoOp, "create": Create, "read": Read, "update": Update, "delete": Delete,
		"delete,create": DeleteThenCreate, "create,delete": CreateThenDelete,
		"forget": Forget, "forget,create": ForgetThenCreate,
	} {
		got, err := ParseActions(strings.Split(list, ","))
		if err != nil || got != want {
			t.Errorf("ParseActions(%s) = %v, %v; want %v", list, got, err, want)
		}
	}
	if _, err := ParseActions([]string{"create", "create"}); err == nil {
		t.Error("ParseActions accepted [create create]")
	}
}

// TestReadPlanFormatZero: Terraform 0.12 to 1.0 write format_version 0.1
// and 0.2, without action_reason, replace_paths or relevant_attributes.
func TestReadPlanFormatZero(t *testing.T) {
	for _, v := range []string{"0.1", "0.2"} {
		path := writeFile(t, "plan.json", `{"format_version":"`+v+`","terraform_version":"0.12.31",
 "planned_values":{"root_module":{}},
 "resource_changes":[
  {"address":"null_resource.a","mode":"managed","type":"null_resource","name":"a","provider_name":"null","change":{"actions":["create"],"before":null,"after":{"triggers":null},"after_unknown":{"id":true}}},
  {"address":"null_resource.b","mode":"managed","type":"null_resource","name":"b","provider_name":"null","change":{"actions":["delete","create"],"before":{"id":"1"},"after":{},"after_unknown":{"id":true}}},
  {"address":"null_resource.c","mode":"managed","type":"null_resource","name":"c","provider_name":"null","change":{"actions":[],"before":{"id":"2"},"after":{"id":"2"}}}],
 "configuration":{"root_module":{}}}`)
		var actions []Action
		p, err := ReadPlanFile(path, func(_ string, rc *ResourceChange) error {
			a, err := ParseActions(rc.Change.Actions)
			actions = append(actions, a)
			return err
		})
		if err != nil {
			t.Fatalf("format_version %s: %v", v, err)
		}
		if p.FormatVersion != v || len(actions) != 3 || actions[0] != Create || actions[1] != DeleteThenCreate || actions[2] != NoOp {
			t.Errorf("format_version %s: %q, actions %v", v, p.FormatVersion, actions)
		}
	}
}

// FuzzMemberOffsets: where an object's own members begin, found in one
// pass over its text, is where jsontext reads each member's name.
func FuzzMemberOffsets(f *testing.F) {
	f.Add(`{"a":1,"b":{"c":[1,{"d":"}"}]},"e\"f":"g\\"}`)
	f.Add(`{ "x" : [ ] , "y":null}`)
	f.Add(`[{"a":1}]`)
	f.Fuzz(func(t *testing.T, doc string) {
		v := jsontext.Value(doc)
		if !v.IsValid(jsontext.AllowDuplicateNames(true)) {
			return
		}
		var want []uint32
		if k := v.Kind(); k == '{' {
			dec := jsontext.NewDecoder(strings.NewReader(doc), jsontext.AllowDuplicateNames(true))
			dec.ReadToken()
			for dec.PeekKind() != '}' {
				name, err := dec.ReadValue()
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, uint32(dec.InputOffset())-uint32(len(name)))
				if _, err := dec.ReadValue(); err != nil {
					t.Fatal(err)
				}
			}
		}
		if got := jsonread.MemberOffsets([]byte(doc)); !slices.Equal(got, want) {
			t.Errorf("%s: offsets %v, want %v", doc, got, want)
		}
	})
}
