package report

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// RepoConfigPath is a repository's own planpr settings, read from its
// default branch — never from a pull request's head, which could loosen
// its own gate.
const RepoConfigPath = ".github/planpr.yml"

// RepoFailOn reads the fail_on of a RepoConfigPath: a list, or a
// comma-separated string, of FailConditions. It is nil, with no error,
// when the file says none, and an error when it cannot be read or names an
// unknown condition: the runner's own fail-on stands then.
func RepoFailOn(src []byte) (FailOn, error) {
	var cfg struct {
		FailOn any `yaml:"fail_on"`
	}
	if err := yaml.Unmarshal(src, &cfg); err != nil {
		return nil, fmt.Errorf("%s is not YAML planpr can read: %w", RepoConfigPath, err)
	}
	var text string
	switch v := cfg.FailOn.(type) {
	case string:
		text = v
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i], _ = x.(string)
		}
		text = strings.Join(parts, ",")
	}
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	f, err := ParseFailOn(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", RepoConfigPath, err)
	}
	if f == nil {
		f = FailOn{} // none: nothing fails the check
	}
	return f, nil
}
