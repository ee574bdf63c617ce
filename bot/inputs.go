package bot

import (
	"slices"

	"github.com/planpr/planpr/render/inputs"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
	"github.com/planpr/planpr/render/tofujson/uistream"
)

// PlanPaths are the plan files of root modules (those that have one).
func PlanPaths(plans []inputs.Root) []string {
	var paths []string
	for _, p := range plans {
		if p.Path != "" {
			paths = append(paths, p.Path)
		}
	}
	return paths
}

// AnyApply reports whether one of files is the UI stream of an apply
// (review.IsApply), told by its messages.
func AnyApply(open *tofujson.Files, files []string) bool {
	for _, f := range files {
		if !uistream.IsStream(open, f) {
			continue
		}
		if apply, err := review.IsApply(open, f); err == nil && apply {
			return true
		}
	}
	return false
}

// TakeSchemas moves the provider schemas among files out, known by their
// content: a glob such as envs/prod/*.json, or an artifact, holds
// schemas.json beside the plan, and read as a plan it would say "no
// changes". It returns the other files and the schemas.
func TakeSchemas(open *tofujson.Files, files []string) (rest, schemas []string) {
	rest = slices.DeleteFunc(slices.Clone(files), func(f string) bool {
		if kind, err := inputs.Classify(open, f); err != nil || kind != inputs.Schemas {
			return false
		}
		schemas = append(schemas, f)
		return true
	})
	return rest, schemas
}
