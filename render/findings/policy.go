package findings

import (
	"bytes"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// conftestResult is one file's result of `conftest test --output json`.
type conftestResult struct {
	Filename   string            `json:"filename"`
	Namespace  string            `json:"namespace"`
	Failures   []conftestMessage `json:"failures"`
	Warnings   []conftestMessage `json:"warnings"`
	Exceptions []conftestMessage `json:"exceptions"`
}

type conftestMessage struct {
	Msg      string `json:"msg"`
	Metadata struct {
		Query string `json:"query"`
	} `json:"metadata"`
}

// opaOutput is `opa eval --format json`'s: each query's expressions and
// their values.
type opaOutput struct {
	Result []struct {
		Expressions []struct {
			Value jsontext.Value `json:"value"`
			Text  string         `json:"text"`
		} `json:"expressions"`
	} `json:"result"`
}

// ReadPolicy reads a policy engine's verdicts over a plan: conftest's
// JSON (`conftest test --output json`: failures are denials, warnings
// medium findings) or OPA's (`opa eval --format json` of a deny query:
// each message of its value a denial). A denial is a High finding with
// Denied set; each lands on the resource its message names.
func ReadPolicy(file string, data []byte) ([]Finding, error) {
	var out []Finding
	add := func(f Finding) {
		if len(out) < MaxFindings {
			f.Address = addressIn(f.Message)
			out = append(out, f)
		}
	}
	if trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(trimmed) > 0 && trimmed[0] == '[' {
		var results []conftestResult
		if err := decode(file, data, &results, "conftest's output"); err != nil {
			return nil, err
		}
		for _, r := range results {
			rule := func(m conftestMessage, kind string) string {
				if q := strings.TrimPrefix(m.Metadata.Query, "data."); q != "" {
					return q
				}
				return r.Namespace + "." + kind
			}
			for _, m := range r.Failures {
				add(Finding{Tool: "conftest", RuleID: rule(m, "deny"), Message: m.Msg, Severity: High, Denied: true})
			}
			for _, m := range r.Warnings {
				add(Finding{Tool: "conftest", RuleID: rule(m, "warn"), Message: m.Msg, Severity: Medium})
			}
		}
		return out, nil
	}
	var o opaOutput
	if err := decode(file, data, &o, "OPA's output"); err != nil {
		return nil, err
	}
	for _, r := range o.Result {
		for _, e := range r.Expressions {
			var msgs []any
			if err := json.Unmarshal(e.Value, &msgs); err != nil {
				continue // not a set of messages: a query that is no deny rule
			}
			for _, m := range msgs {
				text := ""
				switch m := m.(type) {
				case string:
					text = m
				case map[string]any:
					text, _ = m["msg"].(string)
				}
				if text != "" {
					add(Finding{Tool: "opa", RuleID: strings.TrimPrefix(e.Text, "data."), Message: text, Severity: High, Denied: true})
				}
			}
		}
	}
	return out, nil
}
