package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestChangelogIsKeptForUsers: CHANGELOG.md is in Keep a Changelog's form
// — version sections (`## [Unreleased]`, `## [1.2.3] - 2026-11-28`), each
// with Keep a Changelog's kinds of change only — and speaks of what users
// meet, not of planpr's packages (those are the commits').
func TestChangelogIsKeptForUsers(t *testing.T) {
	raw, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	version := regexp.MustCompile(`^## \[(Unreleased|\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?)\]( - \d{4}-\d{2}-\d{2})?$`)
	kinds := map[string]bool{"Added": true, "Changed": true, "Deprecated": true, "Removed": true, "Fixed": true, "Security": true}
	versions := 0
	for i, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			if !version.MatchString(line) {
				t.Errorf("line %d: %q is not a version section (## [Unreleased] or ## [1.2.3] - YYYY-MM-DD)", i+1, line)
			}
			versions++
		case strings.HasPrefix(line, "### "):
			if !kinds[strings.TrimPrefix(line, "### ")] {
				t.Errorf("line %d: %q is not one of Keep a Changelog's kinds of change", i+1, line)
			}
		}
	}
	if versions == 0 {
		t.Error("no version section")
	}
	if m := regexp.MustCompile("`(render|bot|internal|lockdiff)/[a-z/]+`").FindString(text); m != "" {
		t.Errorf("the changelog names a package (%s): say what users meet", m)
	}
}

// TestReadmeFirstScreenIsForUsers: the README's first screen (up to its
// second heading) says what planpr is and why to pick it over pasting
// the plan (tfcmt, dflook), that Atlantis is another kind of tool, shows
// the Action's step and the picture of a comment; the contributors'
// commands come after it, and no benchmark ratio is on it.
func TestReadmeFirstScreenIsForUsers(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	firstHeading := strings.Index(text, "\n## ")
	if firstHeading < 0 || !strings.Contains(text[firstHeading+1:], "\n## ") {
		t.Fatal("the README has fewer than two sections")
	}
	screen := text[:firstHeading]
	for _, want := range []string{"planpr reviews OpenTofu and Terraform changes", "tfcmt", "dflook", "Atlantis",
		"uses: planpr/planpr@v1", "](docs/comment.png)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the README's first screen lacks %q", want)
		}
	}
	if strings.Contains(screen, "go test") || strings.Contains(screen, "go run") {
		t.Error("the README's first screen holds contributors' commands: they come after it")
	}
	if regexp.MustCompile(`\d(\.\d+)?×`).MatchString(screen) {
		t.Error("the README's first screen quotes a benchmark ratio")
	}
	next := text[firstHeading:]
	if !strings.HasPrefix(next, "\n## Try it") || !strings.Contains(next[:strings.Index(next[1:], "\n## ")+1], "go test") {
		t.Error("the section after the first screen is not the two commands (try it, run the tests)")
	}
}
