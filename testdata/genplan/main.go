// Command genplan writes realistic plan JSON of any size, with matching
// provider schemas, for benchmarks and size tests:
//
//	go run ./testdata/genplan -n 10000 -o /tmp/plan10k
//
// writes /tmp/plan10k/plan.json and /tmp/plan10k/schemas.json. The plan
// has every action kind, nested attributes and blocks, sets, maps,
// heredocs, JSON strings, sensitive and unknown values, modules with count
// and for_each, moves, imports, drift and output changes. The same -n and
// -seed give the same bytes.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

const provider = "registry.opentofu.org/acme/gen"

func main() {
	n := flag.Int("n", 1000, "resource changes")
	out := flag.String("o", ".", "output directory")
	seed := flag.Int64("seed", 1, "random seed")
	distinct := flag.Bool("distinct", false, "every change a creation of its own resource, no two alike (the \"add a service\" pull request)")
	name := flag.String("scenario", "", "a plan made from a report of how a comment failed: mixed, fleet, lone-destroy, numbered-destroys, keyed-records")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	if err := writeJSON(filepath.Join(*out, "schemas.json"), schemas()); err != nil {
		fail(err)
	}
	sc := scenario{change: change}
	if *distinct {
		sc.change = distinctCreation
	}
	if *name != "" {
		var ok bool
		if sc, ok = scenarios[*name]; !ok {
			fail(fmt.Errorf("no scenario %q", *name))
		}
		if !flagGiven("n") {
			*n = sc.n
		}
	}
	if err := writePlan(filepath.Join(*out, "plan.json"), *n, rand.New(rand.NewSource(*seed)), sc); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "genplan:", err)
	os.Exit(1)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

func attr(t any) map[string]any { return map[string]any{"type": t, "optional": true} }

func schemas() map[string]any {
	instance := map[string]any{
		"attributes": map[string]any{
			"id":        map[string]any{"type": "string", "computed": true},
			"arn":       map[string]any{"type": "string", "computed": true},
			"name":      attr("string"),
			"size":      attr("number"),
			"enabled":   attr("bool"),
			"tags":      attr([]any{"map", "string"}),
			"ports":     attr([]any{"set", "number"}),
			"zones":     attr([]any{"list", "string"}),
			"user_data": attr("string"),
			"policy":    attr("string"),
			"password":  map[string]any{"type": "string", "optional": true, "sensitive": true},
			"settings":  attr("dynamic"),
			"disks": map[string]any{"optional": true, "nested_type": map[string]any{"nesting_mode": "list", "attributes": map[string]any{
				"size": attr("number"), "kind": attr("string")}}},
		},
		"block_types": map[string]any{
			"network": map[string]any{"nesting_mode": "list", "block": map[string]any{"attributes": map[string]any{
				"subnet": attr("string"), "private_ip": attr("string")}}},
			"ebs": map[string]any{"nesting_mode": "set", "block": map[string]any{"attributes": map[string]any{
				"device": attr("string"), "size": attr("number"), "encrypted": attr("bool")}}},
			"config": map[string]any{"nesting_mode": "single", "block": map[string]any{"attributes": map[string]any{
				"mode": attr("string"), "retries": attr("number")}}},
		},
	}
	lookup := map[string]any{"attributes": map[string]any{"id": map[string]any{"type": "string", "computed": true}, "name": attr("string"), "value": map[string]any{"type": "string", "computed": true}}}
	return map[string]any{"format_version": "1.0", "provider_schemas": map[string]any{provider: map[string]any{
		"provider": map[string]any{"version": 0, "block": map[string]any{}},
		"resource_schemas": map[string]any{"gen_instance": map[string]any{"version": 0, "block": instance},
			"gen_record": map[string]any{"version": 0, "block": map[string]any{"attributes": map[string]any{"name": attr("string"), "ttl": attr("number")}}}},
		"data_source_schemas": map[string]any{"gen_lookup": map[string]any{"version": 0, "block": lookup}},
	}}}
}

// instance makes one gen_instance value; variant changes some attributes.
func instance(r *rand.Rand, i, variant int) map[string]any {
	tags := map[string]any{"Name": fmt.Sprintf("web-%d", i), "team": "platform", "env": []string{"prod", "staging"}[variant%2]}
	for k := 0; k < 6; k++ {
		tags[fmt.Sprintf("cost-center-%d", k)] = fmt.Sprintf("cc-%04d", (i*7+k)%9000)
	}
	var ports []any
	for k := 0; k < 4+variant%3; k++ {
		ports = append(ports, 8000+k*10+variant)
	}
	var lines []string
	for k := 0; k < 40; k++ {
		lines = append(lines, fmt.Sprintf("echo 'step %d of instance %d' && systemctl restart app-%d", k, i, k))
	}
	if variant == 1 {
		lines[7] = "echo 'changed by the pull request'"
	}
	policy := map[string]any{"Version": "2012-10-17", "Statement": []any{
		map[string]any{"Effect": "Allow", "Action": []any{"s3:GetObject", "s3:ListBucket"}, "Resource": fmt.Sprintf("arn:aws:s3:::bucket-%d/*", i)},
		map[string]any{"Effect": "Deny", "Action": "s3:DeleteObject", "Resource": "*"},
	}}
	if variant == 1 {
		policy["Statement"].([]any)[0].(map[string]any)["Action"] = []any{"s3:GetObject", "s3:ListBucket", "s3:PutObject"}
	}
	pj, _ := json.Marshal(policy)
	v := map[string]any{
		"id": fmt.Sprintf("i-%08x", i), "arn": fmt.Sprintf("arn:aws:ec2:eu-west-1:123456789012:instance/i-%08x", i),
		"name": fmt.Sprintf("web-%d", i), "size": 2 + variant*2, "enabled": variant == 0,
		"tags": tags, "ports": ports, "zones": []any{"eu-west-1a", "eu-west-1b", []string{"eu-west-1c", "eu-west-1d"}[variant%2]},
		"user_data": strings.Join(lines, "\n") + "\n", "policy": string(pj),
		"password": fmt.Sprintf("pw-%d-%d", i, variant),
		"settings": map[string]any{"replicas": 3 + variant, "labels": []any{"a", "b"}},
		"disks":    []any{map[string]any{"size": 20, "kind": "gp3"}, map[string]any{"size": 100 + 50*variant, "kind": "st1"}},
		"network":  []any{map[string]any{"subnet": "subnet-1", "private_ip": fmt.Sprintf("10.0.%d.%d", i/250%250, i%250)}},
		"ebs":      []any{map[string]any{"device": "/dev/sdb", "size": 50, "encrypted": true}, map[string]any{"device": "/dev/sdc", "size": 50 + variant*10, "encrypted": variant == 1}},
		"config":   []any{map[string]any{"mode": []string{"fast", "safe"}[variant%2], "retries": 3}},
	}
	_ = r
	return v
}

var instanceSensitive = map[string]any{"password": true, "tags": map[string]any{}, "ports": []any{}, "zones": []any{}, "settings": map[string]any{},
	"disks": []any{map[string]any{}, map[string]any{}}, "network": []any{map[string]any{}}, "ebs": []any{map[string]any{}, map[string]any{}}, "config": []any{map[string]any{}}}

func address(i int) (addr, module string, index any) {
	switch i % 4 {
	case 0:
		return fmt.Sprintf("gen_instance.web[%d]", i), "", i
	case 1:
		m := fmt.Sprintf("module.app[%d]", i%7)
		return fmt.Sprintf("%s.gen_instance.web[%d]", m, i), m, i
	case 2:
		m := fmt.Sprintf("module.region[\"eu-%d\"]", i%5)
		return fmt.Sprintf("%s.gen_instance.web[\"k%d\"]", m, i), m, fmt.Sprintf("k%d", i)
	}
	m := fmt.Sprintf("module.outer.module.inner[%d]", i%3)
	return fmt.Sprintf("%s.gen_instance.web[%d]", m, i), m, i
}

func change(r *rand.Rand, i int) map[string]any {
	addr, module, index := address(i)
	rc := map[string]any{"address": addr, "mode": "managed", "type": "gen_instance", "name": "web", "index": index, "provider_name": provider}
	if module != "" {
		rc["module_address"] = module
	}
	before, after := instance(r, i, 0), instance(r, i, 1)
	unknown := map[string]any{}
	var actions []string
	switch k := i % 20; {
	case k < 6: // create
		actions, before = []string{"create"}, nil
		after = instance(r, i, 0)
		delete(after, "id")
		delete(after, "arn")
		unknown = map[string]any{"id": true, "arn": true}
	case k < 13: // update
		actions = []string{"update"}
	case k < 15: // delete
		actions, after = []string{"delete"}, nil
		rc["action_reason"] = "delete_because_no_resource_config"
	case k < 17: // replace
		actions = []string{"delete", "create"}
		if k == 16 {
			actions = []string{"create", "delete"}
		}
		delete(after, "id")
		unknown = map[string]any{"id": true}
		rc["change_replace_paths"] = true
		rc["action_reason"] = "replace_because_cannot_update"
	case k == 17: // read (data source)
		rc["mode"], rc["type"], rc["name"] = "data", "gen_lookup", "web"
		rc["address"] = strings.Replace(addr, "gen_instance.", "data.gen_lookup.", 1)
		actions = []string{"read"}
		before, after = nil, map[string]any{"name": fmt.Sprintf("lookup-%d", i)}
		unknown = map[string]any{"id": true, "value": true}
		rc["action_reason"] = "read_because_config_unknown"
	case k == 18: // moved, no-op
		actions, after = []string{"no-op"}, before
		rc["previous_address"] = strings.Replace(addr, "web", "old_web", 1)
	default: // imported, or forgotten
		if i%40 == 19 {
			actions, after = []string{"no-op"}, before
			rc["change_importing"] = map[string]any{"id": fmt.Sprintf("i-%08x", i)}
		} else {
			actions, after = []string{"forget"}, nil
		}
	}
	c := map[string]any{"actions": actions, "before": before, "after": after, "after_unknown": unknown,
		"before_sensitive": sensitivity(before), "after_sensitive": sensitivity(after)}
	if rc["change_replace_paths"] != nil {
		c["replace_paths"] = [][]any{{"size"}, {"ebs"}}
		delete(rc, "change_replace_paths")
	}
	if imp := rc["change_importing"]; imp != nil {
		c["importing"] = imp
		delete(rc, "change_importing")
	}
	rc["change"] = c
	return rc
}

func sensitivity(v map[string]any) any {
	if v == nil {
		return false
	}
	if _, ok := v["password"]; !ok {
		return map[string]any{}
	}
	return instanceSensitive
}

// distinctCreation creates resource i, its own resource block (no index)
// and values no other change shares: words rather than numbers tell them
// apart, and the sizes, ports and script lengths differ.
func distinctCreation(r *rand.Rand, i int) map[string]any {
	word := ""
	for k := i + 26; k > 0; k /= 26 {
		word = string(rune('a'+k%26)) + word
	}
	after := instance(r, i, i%2)
	delete(after, "id")
	delete(after, "arn")
	after["name"] = "service-" + word
	after["size"] = i + 1
	after["config"] = []any{map[string]any{"mode": "mode-" + word, "retries": i % 7}}
	after["user_data"] = strings.Repeat("echo "+word+"\n", 5+i%30)
	return map[string]any{"address": "gen_instance.service_" + word, "mode": "managed", "type": "gen_instance", "name": "service_" + word,
		"provider_name": provider, "change": map[string]any{"actions": []string{"create"}, "before": nil, "after": after,
			"after_unknown": map[string]any{"id": true, "arn": true}, "before_sensitive": false, "after_sensitive": sensitivity(after)}}
}

func flagGiven(name string) bool {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

func writePlan(path string, n int, r *rand.Rand, sc scenario) error {
	each := sc.change
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	enc := func(v any) {
		b, _ := json.Marshal(v)
		w.Write(b)
	}
	w.WriteString(`{"format_version":"1.2","terraform_version":"1.9.0","variables":{"env":{"value":"prod"}},"resource_drift":[`)
	drift := max(1, n/100)
	if sc.drift > 0 {
		drift = sc.drift
	}
	for i := 0; i < drift; i++ {
		if i > 0 {
			w.WriteString(",")
		}
		rc := change(r, i*20+7) // an update, whatever the scenario
		c := rc["change"].(map[string]any)
		c["before"], c["after"] = c["after"], c["before"]
		enc(rc)
	}
	w.WriteString(`],"resource_changes":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			w.WriteString(",")
		}
		enc(each(r, i))
	}
	w.WriteString(`],"output_changes":{`)
	for i := 0; i < 20; i++ {
		if i > 0 {
			w.WriteString(",")
		}
		fmt.Fprintf(w, "%q:", fmt.Sprintf("output_%02d", i))
		oc := map[string]any{"actions": []string{"update"}, "before": fmt.Sprintf("v%d", i), "after": fmt.Sprintf("v%d-new", i), "after_unknown": false, "before_sensitive": i%5 == 0, "after_sensitive": i%5 == 0}
		if i%4 == 1 {
			oc["after"], oc["after_unknown"] = nil, true
		}
		enc(oc)
	}
	w.WriteString(`},"relevant_attributes":[`)
	for i := 0; i < drift; i++ {
		if i > 0 {
			w.WriteString(",")
		}
		addr, _, _ := address(i*20 + 7)
		enc(map[string]any{"resource": addr, "attribute": []any{"size"}})
	}
	w.WriteString(`]`)
	if sc.failedCheck {
		w.WriteString(`,"checks":[{"address":{"kind":"check","name":"health","to_display":"check.health"},"status":"fail","instances":[{"address":{"kind":"check","name":"health","to_display":"check.health"},"status":"fail","problems":[{"message":"the health endpoint answered 503"}]}]}]`)
	}
	// One line, as `tofu show -json` writes it.
	w.WriteString(`,"errored":false}` + "\n")
	return w.Flush()
}
