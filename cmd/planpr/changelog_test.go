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
