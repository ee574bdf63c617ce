package inputs

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planpr/planpr/render/tofujson"
	"github.com/planpr/planpr/render/tofujson/uistream"
)

// Root is one root module's inputs, titled by Name: a plan JSON (Path,
// may be empty) and the UI streams of the same root module.
type Root struct {
	Name, Path string
	Streams    []string
	Source     string // how a comment's footer names the plan; Path when empty
	// Root is the root module's directory in the repository, where the
	// tools' diagnostics name their files from ("" when not known).
	Root string
	// Findings are scanners' reports (SARIF) about this root, and Config
	// the directory of its configuration on this machine, where their
	// files and lines are ("" when not at hand: findings then land by the
	// addresses they name only).
	Findings []string
	Config   string
	// Costs are Infracost reports (JSON) of this root's plan; Policies
	// a policy engine's verdicts over it (conftest, opa eval).
	Costs, Policies []string
}

// RootFile is one input file and the root module it belongs to: files
// with the same Key are one module, titled by the first one's Name.
type RootFile struct {
	Key, Name, Path string
	Stream          bool // a UI stream
	// Known says Stream was decided already (render/inputs): the file is
	// not read again to tell.
	Known bool
}

// InDirectory keys a file by its directory, the way a CI job lays out one
// root module per directory; the module is named by the directory's last
// element, "." at the root.
func InDirectory(path string) RootFile {
	dir := filepath.Dir(path)
	name := filepath.Base(dir)
	if dir == "." {
		name = "."
	}
	return RootFile{Key: dir, Name: name, Path: path}
}

// ModuleName names an unlabelled input by its directory, or by its file
// when it sits at the top.
func ModuleName(path string) string {
	dir := filepath.Base(filepath.Dir(path))
	if dir == "." || dir == "/" {
		return filepath.Base(path)
	}
	return dir
}

// Group sorts files into root modules in the order they first appear. A
// module has one plan: a second plan under a key starts another module,
// which the streams after it join. Modules that share a key are named
// by their plan files too, "prod (plan.json)" and "prod (again.json)",
// so that neither hides the other. A file whose kind is not Known is
// looked at, through inputs, the run's files.
func Group(inputs *tofujson.Files, files []RootFile) []Root {
	var out []Root
	var keys []string
	latest := map[string]int{}
	for _, f := range files {
		stream := f.Stream || !f.Known && uistream.IsStream(inputs, f.Path)
		i, ok := latest[f.Key]
		if !ok || (!stream && out[i].Path != "") {
			out = append(out, Root{Name: f.Name})
			keys = append(keys, f.Key)
			i = len(out) - 1
			latest[f.Key] = i
		}
		if stream {
			out[i].Streams = append(out[i].Streams, f.Path)
		} else {
			out[i].Path = f.Path
		}
	}
	uniqueNames(out, keys)
	for i := range out {
		if out[i].Path != "" && latest[keys[i]] != slices.Index(keys, keys[i]) {
			out[i].Name += " (" + filepath.Base(out[i].Path) + ")"
		}
	}
	return out
}

// uniqueNames renames modules of different keys (directories) that share
// a name by the shortest end of their directories that tells them apart:
// regions/prod/eu and regions/staging/eu are "prod/eu" and "staging/eu".
func uniqueNames(out []Root, keys []string) {
	byName := map[string][]int{}
	for i, in := range out {
		byName[in.Name] = append(byName[in.Name], i)
	}
	for _, idx := range byName {
		distinct := map[string]bool{}
		for _, i := range idx {
			distinct[keys[i]] = true
		}
		if len(distinct) < 2 {
			continue
		}
		shared := out[idx[0]].Name
		for n := 2; ; n++ {
			names := map[string]string{} // key → its last n elements
			seen := map[string]string{}  // name → the key that has it
			clash, grew := false, false
			for k := range distinct {
				parts := strings.Split(filepath.ToSlash(k), "/")
				name := strings.Join(parts[max(0, len(parts)-n):], "/")
				if strings.HasPrefix(k, labelKey) {
					name = shared // a label is the name given
				} else {
					grew = grew || len(parts) >= n
				}
				if other, ok := seen[name]; ok && other != k {
					clash = true
				}
				seen[name], names[k] = k, name
			}
			if !clash || !grew {
				for _, i := range idx {
					out[i].Name = names[keys[i]]
				}
				break
			}
		}
	}
}

// Naming is the one policy by which every runner names its roots.
type Naming struct {
	// Top is the repository's top where the run stands (the Action's
	// workspace, dry-run's checkout): an unlabelled file belongs to the
	// root of its directory's place there (Root, and the plan's Source,
	// relative to Top), one root is named by its directory's name (prod)
	// and several by their places (envs/prod, apps/prod), as a matrix's
	// manifests name them. Empty (`planpr render`): each root is named by
	// its directory's name, or its file's at the top.
	Top string
}

// labelKey starts the key of a labelled root: no path starts with NUL,
// so a label never joins a directory's root.
const labelKey = "\x00label "

// An Entry is one input file as given, NAME=PATH labelled or not.
type Entry struct {
	Label, Path string
	Stream      bool
}

// Roots groups a run's plans and streams into root modules: entries with
// one label form one root of that name; unlabelled ones, one per
// directory, named by n.
func Roots(open *tofujson.Files, entries []Entry, n Naming) []Root {
	files := make([]RootFile, len(entries))
	labelled := map[string]bool{}
	for i, e := range entries {
		switch {
		case e.Label != "":
			files[i] = RootFile{Key: labelKey + e.Label, Name: e.Label, Path: e.Path, Stream: e.Stream, Known: true}
			labelled[e.Label] = true
		case n.Top == "":
			// However the path is spelled (plan.json, ./plan.json,
			// dir/plan.json from above): one root per directory.
			key := filepath.Dir(e.Path)
			if abs, err := filepath.Abs(e.Path); err == nil {
				key = filepath.Dir(abs)
			}
			files[i] = RootFile{Key: key, Name: ModuleName(e.Path), Path: e.Path, Stream: e.Stream, Known: true}
		default:
			rel, ok := under(n.Top, e.Path)
			if !ok {
				rel = e.Path
			}
			f := InDirectory(rel)
			f.Path, f.Stream, f.Known = e.Path, e.Stream, true
			files[i] = f
		}
	}
	roots := Group(open, files)
	if n.Top == "" {
		return roots
	}
	for i := range roots {
		if labelled[roots[i].Name] {
			continue // named by its label
		}
		place(&roots[i], n.Top)
		if rel, ok := under(n.Top, roots[i].Path); ok && roots[i].Path != "" {
			roots[i].Source = filepath.ToSlash(rel)
		}
	}
	nameByPlace(roots)
	return roots
}

// under is path relative to top, when it is under top.
func under(top, path string) (string, bool) {
	t, errT := filepath.Abs(top)
	p, errP := filepath.Abs(path)
	if rel, err := filepath.Rel(t, p); errT == nil && errP == nil && err == nil && !strings.HasPrefix(rel, "..") {
		return rel, true
	}
	return "", false
}

// place sets a root's place in the repository whose top is top: the
// directory of its plan (or first stream) relative to top, when it is
// under it. The tools name the files of their diagnostics from there.
func place(in *Root, top string) {
	file := in.Path
	if file == "" && len(in.Streams) > 0 {
		file = in.Streams[0]
	}
	if file == "" {
		return
	}
	if rel, ok := under(top, filepath.Dir(file)); ok {
		in.Root = filepath.ToSlash(rel)
	}
}

// nameByPlace names each of several roots by its place in the repository
// (envs/prod, not prod), as the manifests of a matrix's artifacts name
// them: one job over several roots and the two-job recipe's final job
// then name them alike, and two roots of one last name (envs/prod,
// apps/prod) stay apart. One root keeps its short name.
func nameByPlace(roots []Root) {
	if len(roots) < 2 {
		return
	}
	for i := range roots {
		root, name := roots[i].Root, roots[i].Name
		if root == "" || root == "." {
			continue
		}
		switch base := path.Base(root); {
		case name == root:
		case strings.HasSuffix(root, "/"+name): // prod, or prod/eu as grouping told alike roots apart
			roots[i].Name = root
		case strings.HasPrefix(name, base+" ("): // prod (again.json): two plans of one directory
			roots[i].Name = root + name[len(base):]
		}
	}
}
