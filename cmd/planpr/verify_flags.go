package main

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/lockdiff/verify"
)

// verifyFlags are the flags of registry verification: --verify[=full],
// --registry HOST=URL (repeatable), --platform OS_ARCH (repeatable),
// --cache-dir DIR.
type verifyFlags struct {
	mode       verifyMode
	registries listFlag
	platforms  listFlag
	hosts      listFlag
	cacheDir   string
}

// verifyMode is --verify: a bare flag means on; --verify=MODE and
// --verify MODE (see joinVerifyMode) say on, off or full.
type verifyMode struct{ value string }

func (v *verifyMode) String() string   { return v.value }
func (v *verifyMode) IsBoolFlag() bool { return true }
func (v *verifyMode) Set(s string) error {
	if _, _, err := verify.ParseVerify(s); err != nil {
		return err
	}
	v.value = s
	return nil
}

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func (f *verifyFlags) add(fl *flag.FlagSet) {
	fl.Var(&f.mode, "verify", "check new and changed provider hashes against the registry's signed SHA256SUMS (`MODE`: bare or on; full also downloads the packages to check h1: hashes; off)")
	fl.Var(&f.registries, "registry", "with --verify: `HOST=URL`, the providers.v1 base URL to use for HOST instead of service discovery (mirrors, private registries); repeatable")
	fl.Var(&f.hosts, "verify-host", "with --verify: a registry `HOST` besides registry.opentofu.org and registry.terraform.io that may be contacted through service discovery (a private registry); repeatable. Lock files naming other hosts are not checked")
	fl.Var(&f.platforms, "platform", "a platform `OS_ARCH` your CI or team runs on: every provider a change touches must have hashes for it, and the fix command names it (default: the file's other providers are the measure; the command names linux_amd64, darwin_arm64, windows_amd64); repeatable")
	fl.StringVar(&f.cacheDir, "cache-dir", defaultCacheDir(), "with --verify: `DIR` that keeps the registries' answers (one request per provider version, ever)")
}

// verifier is the Verifier the flags ask for, or nil.
func (f *verifyFlags) verifier() (*verify.Verifier, error) {
	on, full, err := verify.ParseVerify(f.mode.value)
	if err != nil || !on {
		return nil, err
	}
	regs, err := verify.ParseRegistries(f.registries...)
	if err != nil {
		return nil, &usageError{"--" + err.Error()}
	}
	hosts, err := verify.ParseHosts(f.hosts...)
	if err != nil {
		return nil, &usageError{"--verify-host: " + err.Error()}
	}
	return &verify.Verifier{Registries: regs, AllowHosts: hosts, Full: full, Platforms: f.platforms, CacheDir: f.cacheDir}, nil
}

func defaultCacheDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "planpr")
	}
	return ""
}

// verifyModes are the words --verify takes.
var verifyModes = []string{"on", "off", "full", "true", "false"}

// joinVerifyMode writes `--verify MODE` as `--verify=MODE`: --verify is
// a bare flag too (on), and Go's flags would take MODE for a file.
func joinVerifyMode(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "--verify" || a == "-verify") && i+1 < len(args) && (slices.Contains(verifyModes, args[i+1]) || modeLike(args[i+1])) {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

// modeLike reports whether an argument after --verify reads as a mode
// that is not one (--verify bogus), rather than as a lock file: a word
// that is no file here and no path.
func modeLike(arg string) bool {
	if strings.ContainsAny(arg, `/\.`) || strings.HasPrefix(arg, "-") {
		return false
	}
	_, err := os.Stat(arg)
	return err != nil
}

// platformsOf checks --platform's values (OS_ARCH).
func (f *verifyFlags) platformsOf() ([]string, error) {
	for _, p := range f.platforms {
		if strings.TrimSpace(p) == "" {
			return nil, &usageError{`--platform "": want OS_ARCH, such as linux_amd64`}
		}
	}
	ps, err := lockdiff.ParsePlatforms(strings.Join(f.platforms, ","))
	if err != nil {
		return nil, &usageError{"--" + err.Error()}
	}
	return ps, nil
}
