package bot

import (
	"slices"

	"github.com/planpr/planpr/render/inputs"
	"github.com/planpr/planpr/render/tofujson"
)

// takeSchemas moves the provider schemas among files out, known by their
// content: a glob such as envs/prod/*.json, or an artifact, holds
// schemas.json beside the plan, and read as a plan it would say "no
// changes". It returns the other files and the schemas.
func takeSchemas(open *tofujson.Files, files []string) (rest, schemas []string) {
	rest = slices.DeleteFunc(slices.Clone(files), func(f string) bool {
		if kind, err := inputs.Classify(open, f); err != nil || kind != inputs.Schemas {
			return false
		}
		schemas = append(schemas, f)
		return true
	})
	return rest, schemas
}
