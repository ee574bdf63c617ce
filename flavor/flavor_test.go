package flavor

import "testing"

func TestParse(t *testing.T) {
	for in, want := range map[string]Flavor{"": Unknown, "auto": Unknown, "opentofu": OpenTofu, "tofu": OpenTofu, "Terraform": Terraform} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := Parse("pulumi"); err == nil {
		t.Error("Parse(pulumi) succeeded")
	}
}

func TestSay(t *testing.T) {
	in := "OpenTofu will perform the following actions; run `tofu init -upgrade` or \"tofu apply\"\n  tofu apply -refresh-only (tofu show)"
	if got := OpenTofu.Say(in); got != in {
		t.Errorf("OpenTofu.Say changed the text: %q", got)
	}
	want := "Terraform will perform the following actions; run `terraform init -upgrade` or \"terraform apply\"\n  terraform apply -refresh-only (terraform show)"
	if got := Terraform.Say(in); got != want {
		t.Errorf("Terraform.Say:\n got %q\nwant %q", got, want)
	}
	if got := Terraform.Say("opentofu.org tofu_wrapper"); got != "opentofu.org tofu_wrapper" {
		t.Errorf("Say changed words that are not the tool's: %q", got)
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// 77 characters fit; 78 do not.
		{"OpenTofu has compared your real infrastructure against your configuration and found no differences.",
			"OpenTofu has compared your real infrastructure against your configuration and\nfound no differences."},
		{"Terraform has compared your real infrastructure against your configuration and found no differences.",
			"Terraform has compared your real infrastructure against your configuration\nand found no differences."},
		{"\nshort\n  indented command\n", "\nshort\n  indented command\n"},
	} {
		if got := Wrap(tc.in); got != tc.want {
			t.Errorf("Wrap(%q):\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
