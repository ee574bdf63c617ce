package tofujson

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

const schemasDoc = `{"format_version":"1.0","provider_schemas":{"registry.opentofu.org/hashicorp/test":{
 "resource_schemas":{"test_thing":{"version":0,"block":{
   "attributes":{
     "id":{"type":"string","computed":true},
     "tags":{"type":["map","string"],"optional":true},
     "password":{"type":"string","sensitive":true,"write_only":true},
     "disks":{"nested_type":{"nesting_mode":"list","attributes":{"size":{"type":"number"}}},"optional":true}},
   "block_types":{
     "single":{"nesting_mode":"single","block":{"attributes":{"a":{"type":"bool"}}}},
     "group":{"nesting_mode":"group","block":{}},
     "list":{"nesting_mode":"list","block":{}},
     "set":{"nesting_mode":"set","block":{}},
     "map":{"nesting_mode":"map","block":{}}}}}},
 "data_source_schemas":{"test_thing":{"version":0,"block":{"attributes":{"q":{"type":"dynamic"}}}}}}}}`

func TestDecodeSchemas(t *testing.T) {
	s, err := DecodeSchemas("schemas.json", []byte(schemasDoc))
	if err != nil {
		t.Fatal(err)
	}
	r, ok := s.Lookup("registry.opentofu.org/hashicorp/test", "managed", "test_thing")
	if !ok {
		t.Fatal("resource schema not found")
	}
	if got := r.Block.Attributes["tags"].Type; !got.Equals(cty.Map(cty.String)) {
		t.Errorf("tags type = %#v", got)
	}
	if nt := r.Block.Attributes["disks"].NestedType; nt == nil || nt.NestingMode != NestingList || !nt.Attributes["size"].Type.Equals(cty.Number) {
		t.Errorf("disks nested type = %+v", nt)
	}
	for _, mode := range []string{"single", "group", "list", "set", "map"} {
		if r.Block.BlockTypes[mode].NestingMode != mode {
			t.Errorf("block %s has nesting %q", mode, r.Block.BlockTypes[mode].NestingMode)
		}
	}
	d, ok := s.Lookup("registry.opentofu.org/hashicorp/test", "data", "test_thing")
	if !ok || d.Block.Attributes["q"].Type != cty.DynamicPseudoType {
		t.Errorf("data source schema = %+v, %v", d, ok)
	}
	if _, ok := s.Lookup("registry.opentofu.org/hashicorp/other", "managed", "test_thing"); ok {
		t.Error("found a schema for an unknown provider")
	}
}

func TestDecodeSchemasBadInput(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"empty", "", "the file is empty"},
		{"syntax", "{\"format_version\": 1.0,,}", "schemas.json:1:24: invalid JSON"},
		{"not schemas", `{"hello":"world"}`, "not a provider schemas document"},
		{"version 2", `{"format_version":"2.0","provider_schemas":{}}`, `unsupported provider schemas format_version "2.0"`},
		{"bad type", `{"format_version":"1.0","provider_schemas":{"p":{"resource_schemas":{"t":{"block":{"attributes":{"a":{"type":"strin"}}}}}}}}`, `provider "p", resource "t", attribute "a": bad type`},
		{"bad nesting", `{"format_version":"1.0","provider_schemas":{"p":{"resource_schemas":{"t":{"block":{"block_types":{"b":{"nesting_mode":"tree","block":{}}}}}}}}}`, `block "b": unknown nesting_mode "tree"`},
		{"truncated", `{"format_version":"1.0","provider_schemas":{`, "truncated JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeSchemas("schemas.json", []byte(tt.doc))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "schemas.json") {
				t.Errorf("err = %v, want it to name schemas.json and contain %q", err, tt.want)
			}
		})
	}
}
