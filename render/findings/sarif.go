package findings

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Limits on one report: a report much larger than the plan it is about
// is cut, and the comment says so.
const (
	// MaxReportBytes is the largest report read.
	MaxReportBytes = 64 << 20
	// MaxFindings is the most findings kept from one report.
	MaxFindings = 20000
)

// sarifLog is as much of a SARIF 2.1.0 log as planpr reads.
type sarifLog struct {
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool struct {
		Driver struct {
			Name  string      `json:"name"`
			Rules []sarifRule `json:"rules"`
		} `json:"driver"`
	} `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifRule struct {
	ID               string        `json:"id"`
	HelpURI          string        `json:"helpUri"`
	ShortDescription sarifMessage  `json:"shortDescription"`
	Properties       sarifProps    `json:"properties"`
	DefaultConfig    *sarifDefault `json:"defaultConfiguration"`
}

type sarifDefault struct {
	Level string `json:"level"`
}

type sarifProps struct {
	// SecuritySeverity is GitHub's code scanning property: a CVSS-like
	// score, as a string ("8.8").
	SecuritySeverity string `json:"security-severity"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	RuleIndex  *int            `json:"ruleIndex"`
	Level      string          `json:"level"`
	Message    sarifMessage    `json:"message"`
	Locations  []sarifLocation `json:"locations"`
	Properties sarifProps      `json:"properties"`
}

type sarifLocation struct {
	Physical struct {
		Artifact struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine int `json:"startLine"`
		} `json:"region"`
	} `json:"physicalLocation"`
	Logical []struct {
		FullyQualifiedName string `json:"fullyQualifiedName"`
		Name               string `json:"name"`
	} `json:"logicalLocations"`
}

// IsSARIF says whether a JSON document's top-level names are a SARIF
// log's: its version and runs (and usually its $schema).
func IsSARIF(names map[string]bool) bool {
	return names["runs"] && names["version"]
}

// ReadSARIF reads a SARIF 2.1.0 log, of any tool and any number of runs.
// file names it in errors, which are located (file:line:column). It says
// how many findings were left out past MaxFindings.
func ReadSARIF(file string, data []byte) (found []Finding, dropped int, err error) {
	var log sarifLog
	if err := decode(file, data, &log, "a SARIF log"); err != nil {
		return nil, 0, err
	}
	if log.Version != "2.1.0" {
		return nil, 0, &Error{File: file, Msg: fmt.Sprintf("SARIF version %q: planpr reads 2.1.0", log.Version)}
	}
	for _, run := range log.Runs {
		rules := run.Tool.Driver.Rules
		byID := map[string]*sarifRule{}
		for i := range rules {
			byID[rules[i].ID] = &rules[i]
		}
		for _, r := range run.Results {
			if len(found) == MaxFindings {
				dropped++
				continue
			}
			var rule *sarifRule
			if r.RuleIndex != nil && *r.RuleIndex >= 0 && *r.RuleIndex < len(rules) {
				rule = &rules[*r.RuleIndex]
			} else {
				rule = byID[r.RuleID]
			}
			f := Finding{Tool: run.Tool.Driver.Name, RuleID: r.RuleID, Message: r.Message.Text, Severity: severityOf(r, rule)}
			if rule != nil {
				f.HelpURI, f.RuleText = rule.HelpURI, strings.TrimSpace(rule.ShortDescription.Text)
				if f.RuleID == "" {
					f.RuleID = rule.ID
				}
				if f.Message == "" {
					f.Message = rule.ShortDescription.Text
				}
			}
			if len(r.Locations) > 0 {
				loc := r.Locations[0]
				f.File, f.Line = cleanURI(loc.Physical.Artifact.URI), max(loc.Physical.Region.StartLine, 0)
				for _, l := range loc.Logical {
					if a := addressIn(l.FullyQualifiedName); a != "" {
						f.Address = a
						break
					}
				}
			}
			if f.Address == "" {
				f.Address = addressIn(f.Message)
			}
			found = append(found, f)
		}
	}
	return found, dropped, nil
}

// severityOf is a result's severity: GitHub's security-severity score
// when the result or its rule has one (9.0 and up critical, 7.0 high, 4.0
// medium, above 0 low), else its level (error high, warning medium, note
// low, none info), else its rule's default level (warning when none).
func severityOf(r sarifResult, rule *sarifRule) Severity {
	score := r.Properties.SecuritySeverity
	if score == "" && rule != nil {
		score = rule.Properties.SecuritySeverity
	}
	if v, err := strconv.ParseFloat(strings.TrimSpace(score), 64); err == nil {
		switch {
		case v >= 9:
			return Critical
		case v >= 7:
			return High
		case v >= 4:
			return Medium
		case v > 0:
			return Low
		}
		return Info
	}
	level := r.Level
	if level == "" && rule != nil && rule.DefaultConfig != nil {
		level = rule.DefaultConfig.Level
	}
	switch level {
	case "error":
		return High
	case "note":
		return Low
	case "none":
		return Info
	}
	return Medium // "warning", SARIF's default
}

// cleanURI is a report's artifact URI as a path relative to the directory
// scanned: file:// and ./ taken off, %XX unescaped where it is valid.
func cleanURI(uri string) string {
	uri = strings.TrimPrefix(uri, "file://")
	if u, err := unescape(uri); err == nil {
		uri = u
	}
	return strings.TrimPrefix(uri, "./")
}

func unescape(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", errors.New("bad escape")
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", err
		}
		b.WriteByte(byte(v))
		i += 2
	}
	return b.String(), nil
}

// resourceAddress finds a resource instance address in a scanner's text:
// module calls (with their keys), then TYPE.NAME (with its key).
var resourceAddress = regexp.MustCompile(`(?:module\.[A-Za-z_][\w-]*(?:\[(?:\d+|"[^"\\]*")\])?\.)*(?:data\.)?[a-z][a-z0-9]*_[\w-]+\.[A-Za-z_][\w-]*(?:\[(?:\d+|"[^"\\]*")\])?`)

// addressIn is the first resource address s names, "" when none.
func addressIn(s string) string {
	return resourceAddress.FindString(s)
}
