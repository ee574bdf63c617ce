package tofujson

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/planpr/planpr/flavor"
)

func TestDetectFlavor(t *testing.T) {
	rc := func(provider string) string {
		return `{"address":"a.b","mode":"managed","type":"a","name":"b","provider_name":"` + provider + `","change":{"actions":["create"],"before":null,"after":{}}}`
	}
	planned := func(provider string) string {
		return `"planned_values":{"root_module":{"resources":[{"address":"a.b","provider_name":"` + provider + `"}]}}`
	}
	for _, tc := range []struct {
		name, doc string
		want      flavor.Flavor
	}{
		{"terraform registry", `{"format_version":"1.2",` + planned("registry.terraform.io/hashicorp/null") + `}`, flavor.Terraform},
		{"opentofu registry", `{"format_version":"1.2",` + planned("registry.opentofu.org/hashicorp/null") + `}`, flavor.OpenTofu},
		{"both registries", `{"format_version":"1.2","resource_changes":[` + rc("registry.opentofu.org/a/a") + `,` + rc("registry.terraform.io/a/a") + `]}`, flavor.Unknown},
		{"pretty-printed", "{\n  \"format_version\": \"1.2\",\n  \"resource_changes\": [{\"provider_name\" : \"registry.terraform.io/x/y\"}]\n}", flavor.Terraform},
		{"builtin provider only", `{"format_version":"1.2","resource_changes":[` + rc("terraform.io/builtin/terraform") + `]}`, flavor.Unknown},
		{"terraform's last members", `{"format_version":"1.2","resource_changes":[` + rc("terraform.io/builtin/terraform") + `],"timestamp":"2025-01-01T00:00:00Z","applyable":true,"complete":true,"errored":false}`, flavor.Terraform},
		{"sorted keys: applyable first", `{"applyable":true,"complete":true,"configuration":{}}`, flavor.Terraform},
		{"an attribute named complete", `{"format_version":"1.2","resource_changes":[{"change":{"after":{"complete":true}}}]}`, flavor.Unknown},
		{"format 0.x", `{"format_version":"0.1","terraform_version":"0.12.31"}`, flavor.Terraform},
		{"a version from before the fork alone", `{"format_version":"1.1","terraform_version":"1.3.0-dev","output_changes":{}}`, flavor.Unknown},
		{"deferred changes", `{"format_version":"1.2","deferred_changes":[]}`, flavor.Terraform},
		{"providers past the head", `{"format_version":"1.2","variables":{"v":{"value":"` + strings.Repeat("x", flavorHead) + `"}},` + planned("registry.terraform.io/a/b") + `}`, flavor.Unknown},
	} {
		if got := DetectFlavor(writeFile(t, "plan.json", tc.doc)); got != tc.want {
			t.Errorf("%s: DetectFlavor = %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := DetectFlavor(writeFile(t, "plan.json", string(utf16Bytes(`{"format_version":"0.2"}`, binary.LittleEndian, true)))); got != flavor.Terraform {
		t.Errorf("UTF-16: DetectFlavor = %v, want terraform", got)
	}
}
