package text

import (
	"testing"

	"github.com/planpr/planpr/flavor"
)

// OpenTofu's messages as its renderer prints them (RENDERING.md), and
// Terraform's as terraform v1.11.4 `show` prints them: each flavour's
// product name moves a line break here and there.
func TestMessagesInEachToolsWords(t *testing.T) {
	for _, tc := range []struct {
		f         flavor.Flavor
		got, want string
	}{
		{flavor.OpenTofu, words(flavor.OpenTofu).legend, "\nOpenTofu used the selected providers to generate the following execution\nplan. Resource actions are indicated with the following symbols:\n"},
		{flavor.OpenTofu, words(flavor.OpenTofu).versionWarning, "\nWarning: This plan was generated using a different version of OpenTofu, the\ndiff presented here may be missing representations of recent features.\n"},
		{flavor.OpenTofu, words(flavor.OpenTofu).outputsOnly, "\nYou can apply this plan to save these new output values to the OpenTofu\nstate, without changing any real infrastructure.\n"},
		{flavor.OpenTofu, words(flavor.OpenTofu).driftHeader, "\nNote: Objects have changed outside of OpenTofu\n\nOpenTofu detected the following changes made outside of OpenTofu since the\nlast \"tofu apply\" which may have affected this plan:\n"},
		{flavor.OpenTofu, words(flavor.OpenTofu).driftRefresh, "\n\nThis is a refresh-only plan, so OpenTofu will not take any actions to undo\nthese. If you were expecting these changes then you can apply this plan to\nrecord the updated values in the OpenTofu state without changing any remote\nobjects.\n"},
		{flavor.OpenTofu, words(flavor.OpenTofu).driftOther, "\n\nUnless you have made equivalent changes to your configuration, or ignored the\nrelevant attributes using ignore_changes, the following plan may include\nactions to undo or respond to these changes.\n"},
		{flavor.OpenTofu, words(flavor.OpenTofu).noChangesRO, "\nNo changes. Your infrastructure still matches the configuration.\n\nOpenTofu has checked that the real remote objects still match the result of\nyour most recent changes, and found no differences.\n"},
		{flavor.OpenTofu, words(flavor.OpenTofu).noChangesDel, "\nNo changes. No objects need to be destroyed.\n\nEither you have not created any objects yet or the existing objects were\nalready deleted outside of OpenTofu.\n"},
		{flavor.OpenTofu, words(flavor.OpenTofu).driftApplyable, "\nYour configuration already matches the changes detected above, so applying\nthis plan will only update the state to include the changes detected above\nand won't change any real infrastructure.\n"},
		{flavor.OpenTofu, words(flavor.OpenTofu).driftRefreshCmd, "\nYour configuration already matches the changes detected above. If you'd like\nto update the OpenTofu state to match, create and apply a refresh-only plan:\n  tofu apply -refresh-only\n"},
		{flavor.OpenTofu, words(flavor.OpenTofu).targeted, "\nNote: You used the -target option, so OpenTofu only checked resources\nmatching those targets and may have skipped others. If you expected changes\nto appear, verify that the addresses passed to -target are correct.\n"},
		{flavor.OpenTofu, words(flavor.OpenTofu).stateVersionWarning, "\nWarning: This state was retrieved using a different version of OpenTofu, the\nstate presented here maybe missing representations of recent features.\n"},
		{flavor.Unknown, words(flavor.Unknown).actions, "\nOpenTofu will perform the following actions:\n"},
		{flavor.Terraform, words(flavor.Terraform).legend, "\nTerraform used the selected providers to generate the following execution\nplan. Resource actions are indicated with the following symbols:\n"},
		{flavor.Terraform, words(flavor.Terraform).compared, "\nTerraform has compared your real infrastructure against your configuration\nand found no differences, so no changes are needed.\n"},
		{flavor.Terraform, words(flavor.Terraform).noChangesRO, "\nNo changes. Your infrastructure still matches the configuration.\n\nTerraform has checked that the real remote objects still match the result of\nyour most recent changes, and found no differences.\n"},
		{flavor.Terraform, words(flavor.Terraform).driftHeader, "\nNote: Objects have changed outside of Terraform\n\nTerraform detected the following changes made outside of Terraform since the\nlast \"terraform apply\" which may have affected this plan:\n"},
		{flavor.Terraform, words(flavor.Terraform).driftRefreshCmd, "\nYour configuration already matches the changes detected above. If you'd like\nto update the Terraform state to match, create and apply a refresh-only plan:\n  terraform apply -refresh-only\n"},
		{flavor.Terraform, words(flavor.Terraform).legendUpdate, "  ~ update in-place"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.f, tc.got, tc.want)
		}
	}
}
