package findings

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// FuzzReadSARIF: any bytes are a list of findings or a located error,
// never a panic; every finding's line is not negative.
func FuzzReadSARIF(f *testing.F) {
	for _, p := range []string{"modules/tfsec.sarif", "modules-json/tfsec.sarif"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "findings", p)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"version":"2.1.0","runs":[{"results":[{"ruleIndex":7,"locations":[{"physicalLocation":{"region":{"startLine":-3}}}]}]}]}`))
	f.Add([]byte(`{"version":"2.1.0","runs":[{"tool":{"driver":{"rules":[{"id":"r","properties":{"security-severity":"NaN"}}]}},"results":[{"ruleId":"r","message":{"text":"module.a[\"x\"].aws_s3_bucket.b[0] is open"}}]}]}`))
	f.Add([]byte(`{"version":"2.0.0","runs":[]}`))
	f.Add([]byte("{\n  \"runs\": [1,"))
	f.Fuzz(func(t *testing.T, data []byte) {
		found, _, err := ReadSARIF("report.sarif", data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "report.sarif" {
				t.Fatalf("an error not located in the report: %v", err)
			}
			return
		}
		for _, f := range found {
			if f.Line < 0 {
				t.Fatalf("line %d", f.Line)
			}
		}
	})
}

// FuzzIndexAt: any configuration text, in either syntax, indexes without
// a panic, and At answers any line: an address, none, or problems said.
func FuzzIndexAt(f *testing.F) {
	for _, p := range []string{"modules/main.tf", "modules/modules/x/main.tf", "modules-json/main.tf.json"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "findings", p)); err == nil {
			f.Add(b, filepath.Ext(p) == ".json", 5)
		}
	}
	f.Add([]byte("module \"m\" {\n  source = \"./\"\n}\n"), false, 1) // a module that calls itself
	f.Add([]byte(`{"module":{"m":{"source":"../.."}}}`), true, 1)
	f.Add([]byte("resource \"a\" {"), false, 1)
	f.Fuzz(func(t *testing.T, src []byte, json bool, line int) {
		name := "main.tf"
		if json {
			name = "main.tf.json"
		}
		ix := NewIndex(fstest.MapFS{name: {Data: src}})
		for _, a := range ix.At(name, line) {
			if a == "" {
				t.Fatal("an empty address")
			}
		}
	})
}

// FuzzReadInfracost: any bytes are a cost or a located error, never a
// panic; amounts stay exact.
func FuzzReadInfracost(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "findings", "infracost", "infracost.json")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"version":"0.2","currency":"EUR","projects":[{"pastBreakdown":{"totalMonthlyCost":"10"},"breakdown":{"totalMonthlyCost":"1e3"},"diff":{"resources":[{"name":"a_b.c","monthlyCost":null}]}}]}`))
	f.Add([]byte(`{"version":"0.2","projects":[{"breakdown":{"totalMonthlyCost":"1/0"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadInfracost("infracost.json", data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "infracost.json" {
				t.Fatalf("an error not located in the report: %v", err)
			}
			return
		}
		if c.Now == nil || c.Delta == nil {
			t.Fatal("no totals")
		}
		Money(c.Delta, c.Currency, true)
	})
}

// FuzzReadPolicy: any bytes are findings or a located error, never a panic.
func FuzzReadPolicy(f *testing.F) {
	for _, p := range []string{"policy/report.json", "policy/opa.json"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "findings", p)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"result":[{"expressions":[{"value":[{"msg":"a_b.c denied"},7,null],"text":"data.x"}]}]}`))
	f.Add([]byte(`[{"namespace":"main","failures":[{"msg":"x"}],"warnings":null}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := ReadPolicy("policy.json", data); err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "policy.json" {
				t.Fatalf("an error not located in the report: %v", err)
			}
		}
	})
}
