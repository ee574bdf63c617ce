package review

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/planpr/planpr/render/inputs"
	"slices"
	"strings"

	"github.com/planpr/planpr/render/tofujson"
)

// Splitting calls read with ins. When read meets a plan file that holds
// several plans one after another (`terragrunt run-all show -json`), the
// file's input becomes one input per plan, named NAME#1, NAME#2… (the
// plan JSON does not record its directory), with the streams staying with
// the first; read is then called again with them. A file of one plan is
// read once, as before. Errors in a part name the original file and their
// place in it. The parts are read through files, the run's, which read
// must read them through too. cleanup removes the parts: call it once
// done with what read made, even on error.
func Splitting(files *tofujson.Files, ins []inputs.Root, read func([]inputs.Root) error) (cleanup func(), err error) {
	var releases []func()
	parts := map[string]split{} // a part's path → where it came from
	cleanup = func() {
		for _, release := range releases {
			release()
		}
	}
	for {
		err = read(ins)
		var several *tofujson.SeveralPlansError
		if !errors.As(err, &several) {
			return cleanup, locate(err, parts)
		}
		i := slices.IndexFunc(ins, func(in inputs.Root) bool { return in.Path == several.File })
		if i < 0 {
			return cleanup, locate(err, parts) // not an input of ours: nothing to split
		}
		found, release, err := files.SplitPlans(several.File)
		releases = append(releases, release)
		if err != nil {
			return cleanup, locate(err, parts)
		}
		in := ins[i]
		name := cmp.Or(in.Name, inputs.ModuleName(in.Path))
		source := cmp.Or(in.Source, in.Path)
		// Names for each plan, in order (terragrunt's modules: "envs/a,envs/b=plans.json"):
		// the plan JSON does not record the directory it was made in.
		names := strings.Split(name, ",")
		if len(names) > 1 && len(names) != len(found) {
			return cleanup, &tofujson.InputError{File: in.Path, Msg: fmt.Sprintf("holds %d plans but %d names were given (%s): give one name for each plan, in the order they appear", len(found), len(names), name)}
		}
		each := make([]inputs.Root, len(found))
		for k, p := range found {
			each[k] = inputs.Root{Name: fmt.Sprintf("%s#%d", name, k+1), Path: p.Path, Source: fmt.Sprintf("%s#%d", source, k+1), Root: in.Root}
			if len(names) > 1 {
				each[k].Name, each[k].Root = names[k], names[k]
			}
			parts[p.Path] = split{part: p, file: in.Path}
		}
		each[0].Streams = in.Streams
		ins = slices.Concat(ins[:i], each, ins[i+1:])
	}
}

// split is where a part came from: its place in the original file.
type split struct {
	part tofujson.PlanPart
	file string // the original, as errors name it
}

// locate names the original file (and the place in it) in an error from a
// part.
func locate(err error, parts map[string]split) error {
	var ie *tofujson.InputError
	if err == nil || !errors.As(err, &ie) {
		return err
	}
	s, ok := parts[ie.File]
	if !ok {
		return err
	}
	return s.part.Locate(err, s.file)
}
