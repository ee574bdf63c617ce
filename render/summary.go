package render

import (
	"encoding/json"
	"io"
	"reflect"

	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/review"
	txt "github.com/planpr/planpr/render/text"
)

// Summary writes the plans' machine summary as JSON: counts, addresses by
// action, why things are replaced, drift, changed outputs, failures.
func Summary(w io.Writer, plans []CommentPlan, o review.PlanOptions) error {
	if o.Mode == "" {
		o.Mode = review.ModeNormal
	}
	doc := struct {
		FormatVersion string             `json:"format_version"`
		Counts        review.FactCounts  `json:"counts"`
		HasChanges    bool               `json:"has_changes"`
		Errored       bool               `json:"errored"`
		Plans         []review.PlanFacts `json:"plans"`
	}{FormatVersion: "1.0", Plans: []review.PlanFacts{}}
	var masker *mask.Masker
	cleanup, err := review.Splitting(plans, func(plans []CommentPlan) error {
		masker = mask.NewMasker()
		doc.Counts, doc.HasChanges, doc.Errored, doc.Plans = review.FactCounts{}, false, false, []review.PlanFacts{}
		for _, p := range plans {
			f, m, err := planFacts(p, o, masker)
			if err != nil {
				return err
			}
			doc.Counts.Include(f.Counts)
			doc.HasChanges = doc.HasChanges || m.Shown > 0 || m.Total.Any() || len(f.OutputsChanged) > 0
			doc.Errored = doc.Errored || f.Errored
			doc.Plans = append(doc.Plans, f)
		}
		return nil
	})
	defer cleanup()
	if err != nil {
		return err
	}
	maskStrings(reflect.ValueOf(&doc).Elem(), masker)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// planFacts reads one root module for the summary.
func planFacts(p CommentPlan, o review.PlanOptions, masker *mask.Masker) (review.PlanFacts, *review.Module, error) {
	m, err := review.ReadModule(p, o, review.ScanOptions{Masker: masker, KeepAll: true})
	if err != nil {
		return review.PlanFacts{}, nil, err
	}
	f := m.Facts(func(p []any) string { return maskedPath(masker, p) })
	for i := range f.Streams { // named as the footer names them: no runner's paths
		f.Streams[i].Path = streamSource(p.Path, f.Path, f.Streams[i].Path)
	}
	if m.Scan.HasDrift && p.Path != "" {
		entries, err := txt.DriftEntries(o, m.Scan, len(f.OutputsChanged) > 0, review.IndexConfiguration(m.Scan.Plan.Configuration))
		if err != nil {
			return review.PlanFacts{}, nil, err
		}
		for _, e := range entries {
			f.Drift = append(f.Drift, e.Address)
		}
	}
	return f, m, nil
}

// maskStrings masks every string in v in place — fields, elements, map
// keys and values — so no part of the summary shows a secret: values are
// masked one by one, before they are encoded.
func maskStrings(v reflect.Value, m *mask.Masker) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(m.Mask(v.String()))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			maskStrings(v.Elem(), m)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				maskStrings(v.Field(i), m)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			maskStrings(v.Index(i), m)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		masked := reflect.MakeMapWithSize(v.Type(), v.Len())
		iter := v.MapRange()
		for iter.Next() {
			k := reflect.New(v.Type().Key()).Elem()
			k.Set(iter.Key())
			maskStrings(k, m)
			val := reflect.New(v.Type().Elem()).Elem()
			val.Set(iter.Value())
			maskStrings(val, m)
			masked.SetMapIndex(k, val)
		}
		v.Set(masked)
	}
}
