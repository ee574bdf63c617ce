package lockdiff

import (
	"fmt"
	"slices"
	"strings"
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
)

// LockCommand is the command that records the hashes of providers (all
// of the configuration's when none is named) for platforms (the team's,
// or DefaultPlatforms): `tofu providers lock -platform=linux_amd64 …
// registry.opentofu.org/hashicorp/null`, ready to copy. Findings speak the
// lock file's tool, so a Terraform lock reads `terraform providers lock`.
func LockCommand(platforms []string, providers ...Address) string {
	if len(platforms) == 0 {
		platforms = DefaultPlatforms
	}
	cmd := "tofu providers lock"
	for _, p := range platforms {
		cmd += " -platform=" + p
	}
	for _, a := range providers {
		cmd += " " + a.String()
	}
	return "`" + cmd + "`"
}

// lockAdvice is the sentence that ends a finding about missing hashes.
func lockAdvice(platforms []string, providers ...Address) string {
	which := "the platforms your team and CI use"
	if len(platforms) > 0 {
		which = "the platforms you declared"
	}
	return fmt.Sprintf("run %s from the root module (%s) and commit the result", LockCommand(platforms, providers...), which)
}

func providerFindings(d *ProviderDiff, platforms []string) []Finding {
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
			add("no-hashes", Warning, "The lock for %s has no hashes, so nothing checks the package `tofu init` downloads; %s.", d.Address, lockAdvice(platforms, d.Address))
		case h1 == 1 && zh == 0:
			add("single-platform", Warning, "The lock for %s has only one `h1:` hash and no `zh:` hashes: it was made on one platform, and `tofu init` on any other will fail to verify the package; %s.", d.Address, lockAdvice(platforms, d.Address))
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

// UnverifiedAddition is what an added hash's alert says until the
// registry has vouched for it (lockdiff/verify then makes it info).
const UnverifiedAddition = "Nothing verified them: OpenTofu accepts a package that matches any hash the lock lists, so an added hash is all a swapped package needs. Check them against the registry (`planpr lockdiff --verify on`, the Action's `verify: true`), or run `tofu providers lock` from a trusted machine and compare."

// HashesAddedKinds are the findings of hashes added to an unchanged
// version: alerts until verified.
var HashesAddedKinds = []string{"zh-filled", "zh-added", "h1-added"}

// sameVersionHashFindings explains hash changes on an unchanged version,
// where `tofu init` only ever adds hashes: anything else was done by hand
// or by a re-published package. Every hash change is named: a hash of one
// scheme removed while another of that scheme is added is a replacement,
// an alert with the next step; removals alone are notices; additions are
// alerts until something verifies them (OpenTofu accepts a package
// matching any listed hash, so an added hash is the swap itself).
func sameVersionHashFindings(d *ProviderDiff) []Finding {
	var fs []Finding
	add := func(kind string, sev Severity, format string, args ...any) {
		fs = append(fs, Finding{Kind: kind, Severity: sev, Message: fmt.Sprintf(format, args...)})
	}
	name := fmt.Sprintf("%s %s", d.Address, d.After.RawVersion)
	var replaced, removedOnly []string
	h1Kept := len(ofScheme(d.Before.Hashes, "h1")) > 0 && len(minus(ofScheme(d.Before.Hashes, "h1"), d.After.Hashes)) == 0 &&
		len(minus(ofScheme(d.After.Hashes, "h1"), d.Before.Hashes)) == 0
	for _, scheme := range []string{"zh", "h1"} {
		before, after := ofScheme(d.Before.Hashes, scheme), ofScheme(d.After.Hashes, scheme)
		added, removed := minus(after, before), minus(before, after)
		switch {
		case len(added) > 0 && len(removed) > 0:
			replaced = append(replaced, fmt.Sprintf("%s removed (%s) and %s added (%s)",
				hashCount(len(removed), scheme), NameHashes(removed), countOf(len(added)), NameHashes(added)))
		case len(removed) > 0:
			removedOnly = append(removedOnly, fmt.Sprintf("%s removed (%s)", hashCount(len(removed), scheme), NameHashes(removed)))
		case len(added) > 0 && scheme == "zh" && len(before) == 0:
			add("zh-filled", Alert, "`zh:` hashes of %s were filled in (%d added: %s) for the same version. %s (%s.)", d.Address, len(added), NameHashes(added), UnverifiedAddition, aboutZH)
		case len(added) > 0 && scheme == "zh":
			add("zh-added", Alert, "%s added to %s for the same version (%s). %s (%s.)", hashCount(len(added), "zh"), d.Address, NameHashes(added), UnverifiedAddition, aboutZH)
		case len(added) > 0:
			add("h1-added", Alert, "%s added to %s (%s): new platforms, or the move from `zh:`-only locks to `h1:`. %s (%s.)",
				hashCount(len(added), "h1"), name, NameHashes(added), UnverifiedAddition, aboutH1)
		}
	}
	if len(replaced) > 0 {
		why := "That is what a re-published or tampered provider package looks like"
		if h1Kept {
			why = "Its `h1:` hashes did not change, which a re-published archive with the same contents also looks like, but nothing here proves it"
		}
		add("hashes-replaced", Alert, "Hashes of %s were replaced while the version stayed the same: %s. `tofu init` only ever adds hashes to a version it has locked. %s. Run `tofu providers lock` from a trusted machine and compare; if the registry's checksums differ, do not merge. (%s; %s.)",
			name, strings.Join(replaced, "; "), why, aboutZH, aboutH1)
	}
	if len(removedOnly) > 0 {
		add("hashes-removed", Notice, "For the same version %s: %s; %s, so `tofu init` on the platforms they covered may now fail to verify the package.",
			name, strings.Join(removedOnly, "; "), aboutSameV)
	}
	return fs
}

// maxNamedHashes bounds the hashes a finding names; the rest are counted.
const maxNamedHashes = 6

// NameHashes names hashes shortly (`zh:1a2b3c4d5e6f…`), the first
// maxNamedHashes, then how many more.
func NameHashes(hs []string) string {
	var names []string
	for i, h := range hs {
		if i == maxNamedHashes {
			names = append(names, fmt.Sprintf("and %d more", len(hs)-i))
			break
		}
		if len(h) > 15 {
			h = h[:15] + "…"
		}
		names = append(names, "`"+h+"`")
	}
	return strings.Join(names, ", ")
}

func countOf(n int) string {
	if n == 1 {
		return "1"
	}
	return fmt.Sprint(n)
}

// coverageFindings warns of a provider the change touched whose hashes
// cover fewer platforms than the file's other providers (or than the
// team's declared platforms): its `h1:` hashes, one a platform, are fewer.
// The most common lock failure in CI is a lock made on a laptop that lacks
// the runner's linux_amd64; it fails `tofu init` there, so it is a warning
// whether or not the registry was asked, with the command that fixes it.
func coverageFindings(fd *FileDiff, after *LockFile, platforms []string) {
	h1 := map[Address]int{}
	for _, l := range after.Providers {
		h1[l.Address] = schemeCount(l.Hashes, "h1")
	}
	for _, d := range fd.Providers {
		if d.After == nil || d.Change == Unchanged || d.Change == Removed || h1[d.Address] == 0 {
			continue
		}
		if slices.ContainsFunc(d.Findings, func(f Finding) bool { return f.Kind == "single-platform" || f.Kind == "no-hashes" }) {
			continue
		}
		most, by := 0, ""
		for a, n := range h1 {
			if a != d.Address && (n > most || n == most && a.String() < by) {
				most, by = n, a.String()
			}
		}
		have := h1[d.Address]
		switch {
		case len(platforms) > have:
			d.Findings = append(d.Findings, Finding{Kind: "platforms-fewer", Severity: Warning, Message: fmt.Sprintf(
				"The lock for %s %s has %s for the %d platforms you declared (%s): `tofu init` on a platform it lacks fails to verify the package; %s.",
				d.Address, d.After.RawVersion, hashCount(have, "h1"), len(platforms), strings.Join(platforms, ", "), lockAdvice(platforms, d.Address))})
		case most > have:
			d.Findings = append(d.Findings, Finding{Kind: "platforms-fewer", Severity: Warning, Message: fmt.Sprintf(
				"The lock for %s %s covers fewer platforms than the rest of the file: %s where %s has %d. `tofu init` on a platform it lacks fails to verify the package (a lock made on a laptop lacks the CI runner's linux_amd64); %s.",
				d.Address, d.After.RawVersion, hashCount(have, "h1"), by, most, lockAdvice(platforms, d.Address))})
		}
	}
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

// Alerts counts the file's findings of severity alert or above.
func (fd *FileDiff) Alerts() int {
	n := 0
	for _, f := range fd.AllFindings() {
		if f.Severity.Rank() >= Alert.Rank() {
			n++
		}
	}
	return n
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
