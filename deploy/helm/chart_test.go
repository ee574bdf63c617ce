// Package helm tests the Helm chart in deploy/helm/planpr: rendered with
// Helm's own packages (no cluster needed) for each way to keep the queue.
package helm

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
)

// render renders the chart with values, and returns its objects by kind.
func render(t *testing.T, values map[string]any) (map[string][]map[string]any, error) {
	t.Helper()
	chart, err := loader.Load("planpr")
	if err != nil {
		t.Fatal(err)
	}
	vals, err := chartutil.ToRenderValues(chart, values, chartutil.ReleaseOptions{Name: "ci", Namespace: "planpr", IsInstall: true}, nil)
	if err != nil {
		return nil, err
	}
	files, err := engine.Render(chart, vals)
	if err != nil {
		return nil, err
	}
	objects := map[string][]map[string]any{}
	for name, text := range files {
		if !strings.HasSuffix(name, ".yaml") || strings.TrimSpace(text) == "" {
			continue
		}
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(text), &obj); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, text)
		}
		if obj != nil {
			objects[obj["kind"].(string)] = append(objects[obj["kind"].(string)], obj)
		}
	}
	return objects, nil
}

func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

var app = map[string]any{"id": "4242", "privateKey": "-----BEGIN RSA PRIVATE KEY-----\nx\n-----END RSA PRIVATE KEY-----\n", "webhookSecret": "s3cret"}

func TestChartSQLite(t *testing.T) {
	objs, err := render(t, map[string]any{"app": app, "ingress": map[string]any{"enabled": true, "host": "planpr.example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"Deployment", "Service", "Secret", "PersistentVolumeClaim", "Ingress"} {
		if len(objs[kind]) != 1 {
			t.Errorf("%d %s objects, want 1", len(objs[kind]), kind)
		}
	}
	d := objs["Deployment"][0]
	c := get(d, "spec", "template", "spec", "containers", 0)
	if get(d, "spec", "replicas") != 1 || get(d, "spec", "strategy", "type") != "Recreate" ||
		get(d, "spec", "template", "spec", "volumes", 0, "persistentVolumeClaim", "claimName") != "ci-planpr-data" {
		t.Errorf("one replica on its volume, recreated: %v", get(d, "spec"))
	}
	if get(c, "readinessProbe", "httpGet", "path") != "/healthz" || get(c, "livenessProbe", "httpGet", "path") != "/healthz" {
		t.Errorf("probes %v", c)
	}
	if get(d, "spec", "template", "spec", "securityContext", "runAsNonRoot") != true || get(c, "securityContext", "readOnlyRootFilesystem") != true ||
		get(d, "spec", "template", "spec", "securityContext", "runAsUser") != 65532 {
		t.Errorf("security context %v %v", get(d, "spec", "template", "spec", "securityContext"), get(c, "securityContext"))
	}
	env := map[string]any{}
	for _, e := range get(c, "env").([]any) {
		env[get(e, "name").(string)] = e
	}
	for _, name := range []string{"PLANPR_APP_ID", "PLANPR_PRIVATE_KEY", "PLANPR_WEBHOOK_SECRET"} {
		if get(env[name], "valueFrom", "secretKeyRef", "name") != "ci-planpr" {
			t.Errorf("%s not from the Secret: %v", name, env[name])
		}
	}
	if get(env["PLANPR_METRICS_LISTEN"], "value") != ":9090" || env["PLANPR_DATABASE_URL"] != nil {
		t.Errorf("metrics listener or database: %v", env)
	}
	if get(objs["Service"][0], "spec", "ports", 1, "name") != "metrics" || get(objs["Ingress"][0], "spec", "rules", 0, "http", "paths", 0, "path") != "/webhook" {
		t.Errorf("service %v ingress %v", objs["Service"][0], objs["Ingress"][0])
	}
	if s := objs["Secret"][0]; get(s, "stringData", "webhook-secret") != "s3cret" || get(s, "stringData", "database-url") != nil {
		t.Errorf("secret %v", s)
	}
}

func TestChartPostgres(t *testing.T) {
	objs, err := render(t, map[string]any{"app": app, "replicas": 3, "postgres": map[string]any{"url": "postgres://planpr:pw@db:5432/planpr"}})
	if err != nil {
		t.Fatal(err)
	}
	d := objs["Deployment"][0]
	if get(d, "spec", "replicas") != 3 || get(d, "spec", "strategy") != nil || len(objs["PersistentVolumeClaim"]) != 0 ||
		get(d, "spec", "template", "spec", "volumes", 0, "emptyDir") == nil {
		t.Errorf("replicas on PostgreSQL: %v; claims %d", get(d, "spec"), len(objs["PersistentVolumeClaim"]))
	}
	found := false
	for _, e := range get(d, "spec", "template", "spec", "containers", 0, "env").([]any) {
		if get(e, "name") == "PLANPR_DATABASE_URL" && get(e, "valueFrom", "secretKeyRef", "key") == "database-url" {
			found = true
		}
	}
	if !found || get(objs["Secret"][0], "stringData", "database-url") != "postgres://planpr:pw@db:5432/planpr" {
		t.Errorf("the database URL is not from the Secret")
	}
}

// TestChartRefuses: replicas on SQLite, or no App credentials, fail to
// render with a message that says what to set.
func TestChartRefuses(t *testing.T) {
	for values, want := range map[*map[string]any]string{
		{"app": app, "replicas": 2}: "replicas > 1 needs PostgreSQL",
		{"app": map[string]any{}}:   "app.id: the GitHub App's id",
	} {
		if _, err := render(t, *values); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: %v, want %q", *values, err, want)
		}
	}
}
