package lockdiff

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Verification is what the provider's registry says of the hashes a lock
// file records for one provider version.
type Verification struct {
	// Status is "verified" (every hash the lock records for the version was
	// checked against what the registry's key signed or publishes),
	// "alert" (one is not the registry's, or the signature fails), or
	// "unchecked" (some hash could not be checked: the reason says why,
	// and no request was made to a host the operator did not allow).
	Status    string   `json:"status"`
	SignedBy  string   `json:"signed_by,omitempty"` // the signing key's id
	KeyOwner  string   `json:"key_owner,omitempty"` // the signing key's identity, as the key names it
	Platforms []string `json:"platforms,omitempty"` // the platforms the lock's hashes cover
	Missing   []string `json:"missing,omitempty"`   // wanted platforms the lock does not cover
	Message   string   `json:"message"`
	// Reason is why nothing could be checked, one sentence for every
	// provider it affects (the registry could not be reached, …): the
	// report says it once for them all.
	Reason string `json:"reason,omitempty"`
}

// DefaultPlatforms are the platforms a team's CI and laptops usually run
// on: a lock that misses one fails `tofu init` there.
var DefaultPlatforms = []string{"linux_amd64", "darwin_arm64", "windows_amd64"}

// ParsePlatforms reads declared platforms (OS_ARCH), comma-, space- or
// line-separated: the Action's platforms input, PLANPR_PLATFORMS.
func ParsePlatforms(s string) ([]string, error) {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' || r == '\r' }) {
		if !platformPattern().MatchString(p) {
			return nil, fmt.Errorf("platform %q: want OS_ARCH, such as linux_amd64", p)
		}
		out = append(out, p)
	}
	return out, nil
}

var platformPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+_[a-z0-9]+$`) })
