package tofujson

import (
	"bytes"
	"regexp"

	"github.com/planpr/planpr/flavor"
	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
)

// flavorHead and flavorTail are how much of a file DetectFlavor reads at
// each end: a plan's first members (its versions, then planned_values with
// each resource's provider) and the members Terraform writes last.
const (
	flavorHead = 64 << 10
	flavorTail = 4 << 10
)

var (
	providerHost  = regexp.MustCompile(`"provider_name"\s*:\s*"registry\.(terraform\.io|opentofu\.org)/`)
	formatVersion = regexp.MustCompile(`^\s*\{\s*"format_version"\s*:\s*"(\d+)\.(\d+)"`)
	terraformTail = regexp.MustCompile(`"(applyable|complete)"\s*:\s*(true|false)\s*,[^{}\[\]]*\}\s*$`)
)

// DetectFlavor says which tool wrote a plan or a state, from what only one
// of them writes, reading no more than the file's two ends (a plan can be
// hundreds of megabytes): the registry of its providers
// (registry.terraform.io, registry.opentofu.org), members only Terraform
// writes (applyable, complete, deferred_changes, action_invocations), or
// a format_version 0.x (Terraform 0.12 to 1.0). Not terraform_version:
// OpenTofu writes its own version there, and plans from before the fork
// are OpenTofu's test data too. Unknown when nothing tells, or the
// providers come from both registries.
func DetectFlavor(path string) flavor.Flavor { return (*Files)(nil).DetectFlavor(path) }

// DetectFlavor is DetectFlavor for one of the run's files: decided once.
func (fs *Files) DetectFlavor(path string) flavor.Flavor {
	if f, ok := fs.knownFlavor(path); ok {
		return f
	}
	f := fs.detectFlavor(path)
	fs.rememberFlavor(path, f)
	return f
}

func (fs *Files) detectFlavor(path string) flavor.Flavor {
	f, err := fs.Open(path)
	if err != nil {
		return flavor.Unknown
	}
	defer f.Close()
	headLen := int64(flavorHead)
	if size := textSize(f); size >= 0 {
		headLen = min(headLen, size) // thousands of small plans in one file: small reads
	}
	head := make([]byte, headLen)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	var tail []byte
	if size := textSize(f); size > int64(n) {
		tail = make([]byte, flavorTail)
		m, _ := f.ReadAt(tail, max(size-flavorTail, int64(n)))
		tail = tail[:m]
	} else {
		tail = head
	}
	if terraformTail.Match(bytes.TrimRight(tail, " \t\r\n")) {
		return flavor.Terraform
	}
	for _, key := range jsonread.TopLevelKeys(head) {
		switch key {
		case "applyable", "complete", "deferred_changes", "action_invocations":
			return flavor.Terraform
		}
	}
	var tf, tofu bool
	for _, m := range providerHost.FindAllSubmatch(head, -1) {
		if string(m[1]) == "terraform.io" {
			tf = true
		} else {
			tofu = true
		}
	}
	switch {
	case tf && tofu:
		return flavor.Unknown
	case tf:
		return flavor.Terraform
	case tofu:
		return flavor.OpenTofu
	}
	if m := formatVersion.FindSubmatch(head); m != nil && string(m[1]) == "0" {
		return flavor.Terraform
	}
	return flavor.Unknown
}
