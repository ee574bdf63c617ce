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
	var doc summaryDoc
	var masker *mask.Masker
	cleanup, err := review.Splitting(plans, func(plans []CommentPlan) error {
		masker, doc = mask.NewMasker(), newSummaryDoc()
		for _, p := range plans {
			m, err := review.ReadModule(p, o, review.ScanOptions{Masker: masker, KeepAll: true})
			if err != nil {
				return err
			}
			if err := doc.add(m, o, masker); err != nil {
				return err
			}
		}
		return nil
	})
	defer cleanup()
	if err != nil {
		return err
	}
	return doc.write(w, masker)
}

// summaryDoc is the machine summary being gathered.
type summaryDoc struct {
	FormatVersion string             `json:"format_version"`
	Counts        review.FactCounts  `json:"counts"`
	HasChanges    bool               `json:"has_changes"`
	Errored       bool               `json:"errored"`
	Plans         []review.PlanFacts `json:"plans"`
}

func newSummaryDoc() summaryDoc {
	return summaryDoc{FormatVersion: "1.0", Plans: []review.PlanFacts{}}
}

// add adds one root module's facts, from its read (which kept every
// change: ScanOptions.KeepAll).
func (doc *summaryDoc) add(m *review.Module, o review.PlanOptions, masker *mask.Masker) error {
	f := m.Facts(func(p []any) string { return maskedPath(masker, p) })
	for i := range f.Streams { // named as the footer names them: no runner's paths
		f.Streams[i].Path = streamSource(m.Path, f.Path, f.Streams[i].Path)
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

// write masks every string of the summary and writes it.
func (doc *summaryDoc) write(w io.Writer, masker *mask.Masker) error {
	maskStrings(reflect.ValueOf(doc).Elem(), masker)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
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
