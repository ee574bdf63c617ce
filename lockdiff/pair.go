package lockdiff

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/planpr/planpr/flavor"
)

// Pair is one lock file as a change leaves it: its source before and
// after (nil or empty when there was, or is, no file), the names its
// diagnostics give each side, and the after side's root module when it is
// known.
type Pair struct {
	Path                  string // how the report names the file
	DeletedPath           string // how it names it when no provider is left (default Path)
	Before, After         []byte
	BeforeName, AfterName string // default: Path
	Config                *Config
	// Flavor is whose words the findings are in; Unknown tells it from
	// the lock file's registries (LockFlavor).
	Flavor flavor.Flavor
	// Platforms are the team's declared platforms (OS_ARCH): every
	// provider the change touches must cover them, and the advice names
	// them. Nil: not declared (the file's other providers are the measure,
	// and the advice names DefaultPlatforms).
	Platforms []string
}

// ComparePair parses both sides of a lock file and compares them, cross-
// checked with the root module's configuration when given. It is how the
// Action, the App, dry-run and lockdiff compare lock files. Diagnostics
// of both sides come back together; with errors, the diff is nil.
func ComparePair(p Pair) (*FileDiff, hcl.Diagnostics) {
	before, diags := Parse(p.Before, orPath(p.BeforeName, p.Path))
	after, afterDiags := Parse(p.After, orPath(p.AfterName, p.Path))
	diags = append(diags, afterDiags...)
	if diags.HasErrors() {
		return nil, diags
	}
	path := p.Path
	if len(after.Providers) == 0 && p.DeletedPath != "" {
		path = p.DeletedPath
	}
	fd := compare(path, before, after, p.Platforms)
	if p.Config != nil {
		CrossCheck(fd, after, p.Config)
	}
	f := p.Flavor
	if f == flavor.Unknown {
		f = LockFlavor(after)
		if len(after.Providers) == 0 {
			f = LockFlavor(before)
		}
	}
	fd.speak(f)
	return fd, diags
}

func orPath(name, path string) string {
	if name == "" {
		return path
	}
	return name
}
