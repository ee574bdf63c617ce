package uistream

import (
	"strings"

	"github.com/planpr/planpr/flavor"
)

// Flavor says which tool wrote a UI stream, from its version
// message: "@module" is "terraform.ui" or "tofu.ui".
func Flavor(module, message string) flavor.Flavor {
	switch {
	case module == "tofu.ui" || strings.HasPrefix(message, "OpenTofu "):
		return flavor.OpenTofu
	case module == "terraform.ui" || strings.HasPrefix(message, "Terraform "):
		return flavor.Terraform
	}
	return flavor.Unknown
}
