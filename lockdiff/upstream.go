package lockdiff

import (
	"fmt"
	"regexp"
	"sync"
)

// changesURL links what changed upstream between an upgrade's (or a
// downgrade's) two versions: the comparison of their release tags in the
// provider's source repository. Both public registries publish a provider
// from github.com/NAMESPACE/terraform-provider-TYPE, tagged vVERSION (their
// publishing rule), so the link needs no request; other registries give
// none. "" when there is none to give.
func changesURL(d *ProviderDiff) string {
	if d.Before == nil || d.After == nil || d.Change != Upgraded && d.Change != Downgraded {
		return ""
	}
	a := d.Address
	if a.Host != HostOpenTofu && a.Host != HostTerraform || !repoPart().MatchString(a.Namespace) || !repoPart().MatchString(a.Type) ||
		!versionPart().MatchString(d.Before.RawVersion) || !versionPart().MatchString(d.After.RawVersion) {
		return ""
	}
	older, newer := d.Before.RawVersion, d.After.RawVersion
	if d.Change == Downgraded {
		older, newer = newer, older
	}
	return fmt.Sprintf("https://github.com/%s/terraform-provider-%s/compare/v%s...v%s", a.Namespace, a.Type, older, newer)
}

var (
	repoPart    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`) })
	versionPart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`) })
)
