package lockdiff

import (
	"fmt"
)

// Severity ranks findings; a reviewer should look at alerts first.
type Severity string

const (
	Info    Severity = "info"
	Notice  Severity = "notice"
	Warning Severity = "warning"
	Alert   Severity = "alert"
	Error   Severity = "error"
)

// Rank orders severities, Info lowest.
func (s Severity) Rank() int {
	switch s {
	case Notice:
		return 1
	case Warning:
		return 2
	case Alert:
		return 3
	case Error:
		return 4
	}
	return 0
}

// Finding is one thing a reviewer should know, in plain words.
type Finding struct {
	Kind     string
	Severity Severity
	Message  string
}

// Explanations of the hash schemes, shown where they help.
const (
	aboutZH    = "`zh:` hashes are SHA-256 sums of the provider's release zip files, copied from the provider's signed SHA256SUMS"
	aboutH1    = "`h1:` hashes cover the unpacked package for one platform, recorded by `tofu init` or `tofu providers lock`"
	aboutSameV = "for the same version `tofu init` only ever adds hashes"
	// LockCommand is the advice for a lock file that misses platforms.
	LockCommand = "run `tofu providers lock -platform=linux_amd64 -platform=darwin_arm64 -platform=windows_amd64` (the platforms your team and CI use) and commit the result"
)

func providerFindings(d *ProviderDiff) []Finding {
	var fs []Finding
	add := func(kind string, sev Severity, format string, args ...any) {
		fs = append(fs, Finding{Kind: kind, Severity: sev, Message: fmt.Sprintf(format, args...)})
	}
	switch d.Change {
	case Added:
		add("provider-added", Notice, "New provider %s %s.", d.Address, d.After.RawVersion)
		h1, zh := schemeCount(d.After.Hashes, "h1"), schemeCount(d.After.Hashes, "zh")
		switch {
		case len(d.After.Hashes) == 0:
			add("no-hashes", Warning, "The lock for %s has no hashes, so nothing checks the package `tofu init` downloads; %s.", d.Address, LockCommand)
		case h1 == 1 && zh == 0:
			add("single-platform", Warning, "The lock for %s has only one `h1:` hash and no `zh:` hashes: it was made on one platform, and `tofu init` on any other will fail to verify the package; %s.", d.Address, LockCommand)
		}
		if d.After.Version.Prerelease() != "" {
			add("prerelease", Warning, "%s %s is a pre-release.", d.Address, d.After.RawVersion)
		}
	case Removed:
		add("provider-removed", Info, "Provider %s %s is no longer locked.", d.Address, d.Before.RawVersion)
	case Upgraded:
		if isMajorUpgrade(d.Before.Version, d.After.Version) {
			why := "a new major version may break configuration; read its upgrade guide"
			if d.After.Version.Segments()[0] == 0 {
				why = "below 1.0 a new minor version may break configuration; read its changelog"
			}
			add("major-upgrade", Warning, "%s upgraded %s → %s: %s.", d.Address, d.Before.RawVersion, d.After.RawVersion, why)
		} else {
			add("upgrade", Notice, "%s upgraded %s → %s.", d.Address, d.Before.RawVersion, d.After.RawVersion)
		}
		if d.After.Version.Prerelease() != "" {
			add("prerelease", Warning, "%s %s is a pre-release.", d.Address, d.After.RawVersion)
		}
	case Downgraded:
		add("downgrade", Warning, "%s downgraded %s → %s: check this is intended (a downgrade can also undo a security fix).", d.Address, d.Before.RawVersion, d.After.RawVersion)
	}
	if d.Before != nil && d.After != nil {
		if d.Before.Constraints != d.After.Constraints && d.Change == Changed && len(d.HashesAdded)+len(d.HashesRemoved) == 0 {
			add("constraints-only", Info, "Only the recorded constraints of %s changed (%s → %s); the locked version %s is the same.",
				d.Address, quoteOrNone(d.Before.Constraints), quoteOrNone(d.After.Constraints), d.After.RawVersion)
		}
		if d.Before.Version.Equal(d.After.Version) {
			fs = append(fs, sameVersionHashFindings(d)...)
		}
	}
	return fs
}

// sameVersionHashFindings explains hash changes on an unchanged version,
// where `tofu init` only ever adds hashes: anything else was done by hand
// or by a re-published package.
func sameVersionHashFindings(d *ProviderDiff) []Finding {
	var fs []Finding
	add := func(kind string, sev Severity, format string, args ...any) {
		fs = append(fs, Finding{Kind: kind, Severity: sev, Message: fmt.Sprintf(format, args...)})
	}
	bzh, azh := ofScheme(d.Before.Hashes, "zh"), ofScheme(d.After.Hashes, "zh")
	bh1, ah1 := ofScheme(d.Before.Hashes, "h1"), ofScheme(d.After.Hashes, "h1")
	zhKept := len(bzh) - len(minus(bzh, azh))
	h1Added, h1Removed := minus(ah1, bh1), minus(bh1, ah1)
	zhAdded := minus(azh, bzh)

	if len(bzh) > 0 && len(azh) > 0 && zhKept == 0 {
		if len(h1Added) == 0 && len(h1Removed) == 0 && len(bh1) > 0 {
			add("zh-replaced", Warning, "Every `zh:` hash of %s %s was replaced (%d → %d), but its `h1:` hashes are unchanged, so the packages themselves verify as before: most likely the lock was regenerated from a different registry or checksum list. Confirm where the new hashes came from. (%s; %s.)",
				d.Address, d.After.RawVersion, len(bzh), len(azh), aboutZH, aboutSameV)
		} else {
			add("zh-replaced", Alert, "Every `zh:` hash of %s %s was replaced (%d → %d, none kept) while the version stayed the same. That is what a re-published or tampered provider package looks like: do not merge until you have checked the hashes against the provider's signed SHA256SUMS for %s. (%s; %s.)",
				d.Address, d.After.RawVersion, len(bzh), len(azh), d.After.RawVersion, aboutZH, aboutSameV)
		}
	} else if len(zhAdded) > 0 {
		if len(bzh) == 0 {
			add("zh-filled", Info, "`zh:` hashes of %s were filled in (%d added) for the same version. (%s.)", d.Address, len(zhAdded), aboutZH)
		} else {
			add("zh-added", Info, "%s added to %s for the same version. (%s.)", hashCount(len(zhAdded), "zh"), d.Address, aboutZH)
		}
	}
	switch {
	case len(h1Added) > 0 && len(h1Removed) > 0:
		add("h1-swapped", Notice, "`h1:` hashes of %s %s were swapped (%d added, %d removed) for the same version; %s, so removals mean the lock was regenerated rather than extended. (%s.)",
			d.Address, d.After.RawVersion, len(h1Added), len(h1Removed), aboutSameV, aboutH1)
	case len(h1Removed) > 0:
		add("h1-dropped", Notice, "%s of %s %s were dropped for the same version; %s, so `tofu init` on the platforms they covered may now fail to verify. (%s.)",
			hashCount(len(h1Removed), "h1"), d.Address, d.After.RawVersion, aboutSameV, aboutH1)
	case len(h1Added) > 0:
		add("h1-added", Info, "%s added to %s %s: new platforms, or the move from `zh:`-only locks to `h1:`. (%s.)",
			hashCount(len(h1Added), "h1"), d.Address, d.After.RawVersion, aboutH1)
	}
	return fs
}

func quoteOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return fmt.Sprintf("%q", s)
}

func fileFindings(fd *FileDiff, before, after *LockFile) []Finding {
	var fs []Finding
	if fd.Deleted {
		fs = append(fs, Finding{Kind: "lock-file-deleted", Severity: Warning, Message: fmt.Sprintf(
			"The lock file %s is deleted: without it `tofu init` picks the newest versions the constraints allow and checks no hashes. Keep it committed unless the root module is gone.", fd.Path)})
	}
	// The same provider from both registries.
	byShort := map[string][]Address{}
	for _, p := range after.Providers {
		byShort[p.Address.Short()] = append(byShort[p.Address.Short()], p.Address)
	}
	for short, addrs := range byShort {
		hosts := map[string]bool{}
		for _, a := range addrs {
			hosts[a.Host] = true
		}
		if hosts[HostOpenTofu] && hosts[HostTerraform] {
			fs = append(fs, Finding{Kind: "both-registries", Severity: Warning, Message: fmt.Sprintf(
				"%s is locked from both %s and %s: the configuration mixes explicit and implicit sources for it, so two copies are installed. Give it one `source` in required_providers.", short, HostTerraform, HostOpenTofu)})
		}
	}
	// A move from registry.terraform.io to registry.opentofu.org.
	for _, p := range after.Providers {
		if p.Address.Host != HostOpenTofu || before.Lookup(p.Address) != nil {
			continue
		}
		old := Address{Host: HostTerraform, Namespace: p.Address.Namespace, Type: p.Address.Type}
		if b := before.Lookup(old); b != nil && after.Lookup(old) == nil {
			fs = append(fs, Finding{Kind: "registry-move", Severity: Notice, Message: fmt.Sprintf(
				"%s moved from %s to %s (%s → %s): expected when switching from Terraform to OpenTofu; the hashes differ because they are the other registry's packages.",
				p.Address.Short(), HostTerraform, HostOpenTofu, b.RawVersion, p.RawVersion)})
		}
	}
	return fs
}

// MaxSeverity is the highest severity among all findings of the diff.
func (fd *FileDiff) MaxSeverity() Severity {
	max := Info
	for _, f := range fd.AllFindings() {
		if f.Severity.Rank() > max.Rank() {
			max = f.Severity
		}
	}
	return max
}

// AllFindings lists the file's findings, then each provider's.
func (fd *FileDiff) AllFindings() []Finding {
	fs := append([]Finding(nil), fd.Findings...)
	for _, p := range fd.Providers {
		fs = append(fs, p.Findings...)
	}
	return fs
}

func hashCount(n int, scheme string) string {
	if n == 1 {
		return fmt.Sprintf("1 `%s:` hash", scheme)
	}
	return fmt.Sprintf("%d `%s:` hashes", n, scheme)
}
