// Package summary writes the machine summary of plans (`planpr render
// --format json`): counts, addresses by action, why things are replaced,
// drift, changed outputs, failures and the plans' fingerprint, every
// string masked.
package summary

import (
	"context"
	"encoding/json"
	"github.com/planpr/planpr/render/inputs"
	"io"
	"reflect"

	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/review"
	txt "github.com/planpr/planpr/render/text"
	"github.com/planpr/planpr/render/tofujson"

	"github.com/planpr/planpr/render/fingerprint"
	"github.com/planpr/planpr/render/streamreport"
)

// Write writes the plans' machine summary as JSON.
func Write(w io.Writer, plans []inputs.Root, o review.PlanOptions) error {
	if o.Mode == "" {
		o.Mode = review.ModeNormal
	}
	if o.Files == nil { // the run's files: each opened once, and the parts of a file of several plans
		o.Files = tofujson.NewFiles()
		defer o.Files.Close()
	}
	var doc *Doc
	var masker *mask.Masker
	cleanup, err := review.Splitting(o.Files, plans, func(plans []inputs.Root) error {
		masker, doc = mask.NewMasker(), New()
		var roots []fingerprint.Root
		for _, p := range plans {
			roots = append(roots, fingerprint.Root{Name: p.Name, Path: p.Path})
		}
		var err error
		if doc.Fingerprint, err = fingerprint.OfRoots(context.Background(), o.Files, roots, fingerprint.Options{}); err != nil {
			return err
		}
		for _, p := range plans {
			m, err := review.ReadModule(p, o, review.ScanOptions{Masker: masker, KeepAll: true})
			if err != nil {
				return err
			}
			if err := doc.Add(m, o, masker); err != nil {
				return err
			}
		}
		return nil
	})
	defer cleanup()
	if err != nil {
		return err
	}
	return doc.Encode(w, masker)
}

// Doc is the machine summary being gathered.
type Doc struct {
	FormatVersion string             `json:"format_version"`
	Counts        review.FactCounts  `json:"counts"`
	HasChanges    bool               `json:"has_changes"`
	Errored       bool               `json:"errored"`
	Plans         []review.PlanFacts `json:"plans"`
	// Fingerprint is what the plans will do (package fingerprint).
	Fingerprint string `json:"fingerprint,omitempty"`
}

// New starts a summary.
func New() *Doc {
	return &Doc{FormatVersion: "1.0", Plans: []review.PlanFacts{}}
}

// Add adds one root module's facts, from its read (which kept every
// change: ScanOptions.KeepAll); masker holds the plan's secrets.
func (doc *Doc) Add(m *review.Module, o review.PlanOptions, masker *mask.Masker) error {
	f := m.Facts(func(p []any) string { return review.MaskedPath(masker, p) })
	if f.Findings != nil { // a scanner's text may quote what the plan keeps secret
		mask := func(ff []review.FindingFact) {
			for i := range ff {
				ff[i].Message, ff[i].Rule, ff[i].File = masker.Quiet(ff[i].Message), masker.Quiet(ff[i].Rule), masker.Quiet(ff[i].File)
			}
		}
		byAddress := map[string][]review.FindingFact{}
		for a, ff := range f.Findings.Resources {
			mask(ff)
			byAddress[masker.Quiet(a)] = append(byAddress[masker.Quiet(a)], ff...)
		}
		f.Findings.Resources = byAddress
		mask(f.Findings.Unmatched)
	}
	if f.Cost != nil {
		byAddress := map[string]string{}
		for a, d := range f.Cost.Resources {
			byAddress[masker.Quiet(a)] = d
		}
		f.Cost.Resources = byAddress
	}
	for i := range f.Streams { // named as the footer names them: no runner's paths
		f.Streams[i].Path = streamreport.NameBeside(m.Path, f.Path, m.Root, f.Streams[i].Path)
	}
	if m.Scan.HasDrift && m.Path != "" {
		entries, err := txt.DriftEntries(o, m.Scan, len(f.OutputsChanged) > 0, review.IndexConfiguration(m.Scan.Plan.Configuration))
		if err != nil {
			return err
		}
		for _, e := range entries {
			f.Drift = append(f.Drift, e.Address)
		}
	}
	doc.Counts.Include(f.Counts)
	doc.HasChanges = doc.HasChanges || m.Shown > 0 || m.Total.Any() || len(f.OutputsChanged) > 0
	doc.Errored = doc.Errored || f.Errored
	doc.Plans = append(doc.Plans, f)
	return nil
}

// Encode masks every string of the summary and writes it.
func (doc *Doc) Encode(w io.Writer, masker *mask.Masker) error {
	masker.MaskAll(reflect.ValueOf(doc).Elem())
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
