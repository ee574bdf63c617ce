package inputs

import (
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
		for n := 2; ; n++ {
			names := map[string]string{} // key → its last n elements
			seen := map[string]string{}  // name → the key that has it
			clash, grew := false, false
			for k := range distinct {
				parts := strings.Split(filepath.ToSlash(k), "/")
				name := strings.Join(parts[max(0, len(parts)-n):], "/")
				grew = grew || len(parts) >= n
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
