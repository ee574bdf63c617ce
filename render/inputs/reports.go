package inputs

import (
	"os"
	"path/filepath"

	"github.com/planpr/planpr/lockdiff"
	"github.com/planpr/planpr/render/tofujson"
)

// HasConfig says whether dir holds a module's configuration files.
func HasConfig(dir string) bool {
	names, err := lockdiff.ConfigFiles(os.DirFS(dir))
	return err == nil && len(names) > 0
}

// IsReport says whether a file of kind is a report about a plan: a
// scanner's findings, a policy engine's verdicts, an Infracost estimate.
func (k Kind) IsReport() bool { return k == Findings || k == Policy || k == Cost }

// TakeReports tells which of paths, the run's open files, are reports
// about a plan (by their content): the rest, and the reports.
func TakeReports(open *tofujson.Files, paths []string) (rest []string, reports []File) {
	for _, p := range paths {
		if kind, err := Classify(open, p); err == nil && kind.IsReport() {
			reports = append(reports, File{Path: p, Kind: kind})
		} else {
			rest = append(rest, p)
		}
	}
	return rest, reports
}

// WithReports gives each root with a plan the reports about it, by one
// rule for every runner: a report in a plan's directory is that root's;
// a scanner's or policy engine's report anywhere else is every root's
// (each finding lands on the resources it is about, or on none); an
// Infracost estimate elsewhere is the only root's, and beside several
// roots an error, since whose it is cannot be told. config, when set,
// says where each root's configuration is (its findings' files and
// lines).
func WithReports(roots []Root, reports []File, config func(Root) string) error {
	planDirs := map[string]bool{}
	for _, r := range roots {
		if r.Path != "" {
			planDirs[filepath.Dir(r.Path)] = true
		}
	}
	withPlan := 0
	for _, r := range roots {
		if r.Path != "" {
			withPlan++
		}
	}
	for _, rep := range reports {
		if rep.Kind == Cost && !planDirs[filepath.Dir(rep.Path)] && withPlan > 1 {
			return &tofujson.InputError{File: rep.Path, Msg: "an Infracost estimate beside no plan of several roots: whose it is cannot be told; put it in its root's directory, beside its plan"}
		}
	}
	for i := range roots {
		r := &roots[i]
		if r.Path == "" {
			continue
		}
		for _, rep := range reports {
			dir := filepath.Dir(rep.Path)
			if dir != filepath.Dir(r.Path) && planDirs[dir] {
				continue // another root's
			}
			switch rep.Kind {
			case Cost:
				r.Costs = append(r.Costs, rep.Path)
			case Policy:
				r.Policies = append(r.Policies, rep.Path)
			default:
				r.Findings = append(r.Findings, rep.Path)
			}
		}
		if config != nil && len(r.Findings) > 0 {
			r.Config = config(*r)
		}
	}
	return nil
}
