// Package helm tests the Helm chart in deploy/helm/planpr: rendered with
// Helm's own packages (no cluster needed) for each way to keep the queue.
package helm

import (
	"io"
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
		dec := yaml.NewDecoder(strings.NewReader(text))
		for {
			var obj map[string]any
			if err := dec.Decode(&obj); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: %v\n%s", name, err, text)
			}
			if obj != nil {
				objects[obj["kind"].(string)] = append(objects[obj["kind"].(string)], obj)
			}
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
	for kind, n := range map[string]int{"Deployment": 1, "Service": 2, "Secret": 1, "PersistentVolumeClaim": 1, "Ingress": 1, "NetworkPolicy": 1} {
		if len(objs[kind]) != n {
			t.Errorf("%d %s objects, want %d", len(objs[kind]), kind, n)
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
	if get(objs["Ingress"][0], "spec", "rules", 0, "http", "paths", 0, "path") != "/webhook" {
		t.Errorf("ingress %v", objs["Ingress"][0])
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
	if from := databaseSecret(d); from != "ci-planpr-database" || secretNamed(objs, from) == nil ||
		get(secretNamed(objs, from), "stringData", "database-url") != "postgres://planpr:pw@db:5432/planpr" {
		t.Errorf("the database URL is not from the Secret the chart makes: %q", from)
	}
}

// databaseSecret is the Secret a Deployment reads PLANPR_DATABASE_URL from.
func databaseSecret(d map[string]any) string {
	for _, e := range get(d, "spec", "template", "spec", "containers", 0, "env").([]any) {
		if get(e, "name") == "PLANPR_DATABASE_URL" && get(e, "valueFrom", "secretKeyRef", "key") == "database-url" {
			name, _ := get(e, "valueFrom", "secretKeyRef", "name").(string)
			return name
		}
	}
	return ""
}

func secretNamed(objs map[string][]map[string]any, name string) map[string]any {
	for _, s := range objs["Secret"] {
		if get(s, "metadata", "name") == name {
			return s
		}
	}
	return nil
}

// TestChartExistingAppSecretWithADatabaseURL: the App's credentials from
// a Secret of the operator's and the database URL given as a value: the
// chart makes the Secret the Deployment reads the URL from (it rendered
// none, and pods could not start).
func TestChartExistingAppSecretWithADatabaseURL(t *testing.T) {
	objs, err := render(t, map[string]any{"app": map[string]any{"existingSecret": "my-app"}, "postgres": map[string]any{"url": "postgres://u:pw@db/planpr"}})
	if err != nil {
		t.Fatal(err)
	}
	d := objs["Deployment"][0]
	if from := databaseSecret(d); secretNamed(objs, from) == nil || get(secretNamed(objs, from), "stringData", "database-url") != "postgres://u:pw@db/planpr" {
		t.Errorf("PLANPR_DATABASE_URL from %q, which the chart does not make; secrets %v", from, objs["Secret"])
	}
	if len(objs["Secret"]) != 1 {
		t.Errorf("%d Secrets: the App's is the operator's", len(objs["Secret"]))
	}
	objs, err = render(t, map[string]any{"app": app, "postgres": map[string]any{"existingSecret": "my-db"}})
	if err != nil {
		t.Fatal(err)
	}
	if from := databaseSecret(objs["Deployment"][0]); from != "my-db" || secretNamed(objs, "ci-planpr-database") != nil {
		t.Errorf("an existing database Secret: read from %q", from)
	}
}

// TestChartKeepsThePodToItsOwn: no service-account token, /tmp bounded,
// /metrics never on the public Service, a NetworkPolicy letting only the
// webhook port in from anywhere, and memory for the workers it runs.
func TestChartKeepsThePodToItsOwn(t *testing.T) {
	objs, err := render(t, map[string]any{"app": app, "service": map[string]any{"type": "LoadBalancer", "port": 443}})
	if err != nil {
		t.Fatal(err)
	}
	pod := get(objs["Deployment"][0], "spec", "template", "spec")
	if get(pod, "automountServiceAccountToken") != false {
		t.Errorf("the service-account token is mounted")
	}
	for _, v := range get(pod, "volumes").([]any) {
		if get(v, "name") == "tmp" && get(v, "emptyDir", "sizeLimit") == nil {
			t.Errorf("/tmp is unbounded: %v", v)
		}
	}
	for _, svc := range objs["Service"] {
		public := get(svc, "spec", "type") != "ClusterIP"
		for _, p := range get(svc, "spec", "ports").([]any) {
			if public && get(p, "name") == "metrics" {
				t.Errorf("metrics on the public Service %v", get(svc, "metadata", "name"))
			}
		}
	}
	np := objs["NetworkPolicy"]
	if len(np) != 1 || get(np[0], "spec", "ingress", 0, "ports", 0, "port") != "http" || get(np[0], "spec", "ingress", 0, "from") != nil ||
		get(np[0], "spec", "ingress", 1, "ports", 0, "port") != "metrics" || get(np[0], "spec", "ingress", 1, "from") == nil {
		t.Errorf("network policy %v", np)
	}
	c := get(pod, "containers", 0)
	workers := ""
	for _, e := range get(c, "env").([]any) {
		if get(e, "name") == "PLANPR_WORKERS" {
			workers, _ = get(e, "value").(string)
		}
	}
	// A job at the artifact cap peaks at 432 MB (measured): the limit must
	// hold every worker's.
	if workers != "2" || get(c, "resources", "limits", "memory") != "1Gi" {
		t.Errorf("workers %q with a memory limit of %v", workers, get(c, "resources", "limits", "memory"))
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
