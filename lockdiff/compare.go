package lockdiff

import (
	"github.com/planpr/planpr/flavor"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"
)

// Change is what happened to one provider between two lock files.
type Change string

const (
	Added      Change = "added"
	Removed    Change = "removed"
	Upgraded   Change = "upgraded"
	Downgraded Change = "downgraded"
	Changed    Change = "changed" // same version, other constraints or hashes
	Unchanged  Change = "unchanged"
)

// ProviderDiff compares one provider's locks.
type ProviderDiff struct {
	Address       Address
	Change        Change
	Before, After *Lock // nil when absent
	HashesAdded   []string
	HashesRemoved []string
	Findings      []Finding
	// Verification is what the registry said of the new hashes (see
	// Verifier), or nil when not asked.
	Verification *Verification
	// ChangesURL shows what changed upstream between the two versions of
	// an upgrade or a downgrade (see changesURL); "" when not known.
	ChangesURL string
}

// VersionBefore and the other accessors give "" for an absent side.
func (d *ProviderDiff) VersionBefore() string { return rawVersion(d.Before) }
func (d *ProviderDiff) VersionAfter() string  { return rawVersion(d.After) }

func rawVersion(l *Lock) string {
	if l == nil {
		return ""
	}
	return l.RawVersion
}

// FileDiff is the comparison of one lock file before and after.
type FileDiff struct {
	Path      string
	Created   bool // no lock file before
	Deleted   bool // no lock file after
	Providers []*ProviderDiff
	Findings  []Finding     // about the file as a whole
	Flavor    flavor.Flavor // whose words the findings are in
	// Skipped is a lock file the review did not read (past a cap): its
	// Findings say why and how to review it.
	Skipped bool

	platforms []string // the team's declared platforms, for the advice
}

// Compare compares two parsed lock files. Either may have no providers (a
// file created or deleted). path names the file in the report.
func Compare(path string, before, after *LockFile) *FileDiff {
	return compare(path, before, after, nil)
}

// compare is Compare with the team's declared platforms (nil: not
// declared), which the advice names and the coverage is held to.
func compare(path string, before, after *LockFile, platforms []string) *FileDiff {
	fd := &FileDiff{Path: path, Created: len(before.Providers) == 0 && len(after.Providers) > 0,
		Deleted: len(after.Providers) == 0 && len(before.Providers) > 0}
	locks := map[Address]*[2]*Lock{}
	side := func(f *LockFile, i int) {
		for _, p := range f.Providers {
			if locks[p.Address] == nil {
				locks[p.Address] = &[2]*Lock{}
			}
			locks[p.Address][i] = p
		}
	}
	side(before, 0)
	side(after, 1)
	sorted := make([]Address, 0, len(locks))
	for a := range locks {
		sorted = append(sorted, a)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].String() < sorted[j].String() })
	for _, a := range sorted {
		fd.Providers = append(fd.Providers, compareProvider(a, locks[a][0], locks[a][1], platforms))
	}
	fd.Findings = fileFindings(fd, before, after)
	coverageFindings(fd, after, platforms)
	fd.platforms = platforms
	return fd
}

func compareProvider(a Address, b, af *Lock, platforms []string) *ProviderDiff {
	d := &ProviderDiff{Address: a, Before: b, After: af}
	switch {
	case b == nil:
		d.Change = Added
		d.HashesAdded = slices.Clone(af.Hashes)
	case af == nil:
		d.Change = Removed
		d.HashesRemoved = slices.Clone(b.Hashes)
	default:
		d.HashesAdded = minus(af.Hashes, b.Hashes)
		d.HashesRemoved = minus(b.Hashes, af.Hashes)
		switch c := af.Version.Compare(b.Version); {
		case c > 0:
			d.Change = Upgraded
		case c < 0:
			d.Change = Downgraded
		case b.Constraints != af.Constraints || len(d.HashesAdded) > 0 || len(d.HashesRemoved) > 0:
			d.Change = Changed
		default:
			d.Change = Unchanged
		}
	}
	d.Findings = providerFindings(d, platforms)
	d.ChangesURL = changesURL(d)
	return d
}

// minus is the hashes of xs not in ys, in xs order.
func minus(xs, ys []string) []string {
	in := make(map[string]bool, len(ys))
	for _, y := range ys {
		in[y] = true
	}
	var out []string
	for _, x := range xs {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

// schemeCount counts the hashes of one scheme ("h1", "zh").
func schemeCount(hashes []string, scheme string) int {
	n := 0
	for _, h := range hashes {
		if strings.HasPrefix(h, scheme+":") {
			n++
		}
	}
	return n
}

func ofScheme(hashes []string, scheme string) []string {
	var out []string
	for _, h := range hashes {
		if strings.HasPrefix(h, scheme+":") {
			out = append(out, h)
		}
	}
	return out
}

// isMajorUpgrade is an upgrade that may break: a new major version, or a
// new minor version below 1.0, where minor versions may break.
func isMajorUpgrade(b, a *version.Version) bool {
	bs, as := b.Segments(), a.Segments()
	if as[0] != bs[0] {
		return true
	}
	return as[0] == 0 && as[1] != bs[1]
}
