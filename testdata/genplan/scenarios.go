package main

import (
	"fmt"
	"math/rand"
	"strings"
)

// A scenario is a plan the comment must handle at scale, each made from a
// report of how an earlier comment failed a reviewer.
type scenario struct {
	change func(r *rand.Rand, i int) map[string]any
	// n is the number of changes when -n is not given.
	n int
	// drift is how many resources changed outside the tool (n/100 when 0).
	drift int
	// failedCheck adds a check block that failed.
	failedCheck bool
}

var scenarios = map[string]scenario{
	// mixed: every action over many resources, named as real
	// configurations name them — indexes, for_each keys, and names with a
	// counter (svc_007) — with drift and a failed check.
	"mixed": {change: mixedChange, n: 10000, drift: 162, failedCheck: true},
	// fleet: instances whose values differ only in numbers that follow
	// from their index (size = index), destroyed, created and updated.
	"fleet": {change: fleetChange, n: 2000},
	// lone-destroy: one destroy among 300 alike replacements of
	// resources numbered in their names.
	"lone-destroy": {change: loneDestroyChange, n: 301},
	// numbered-destroys: 3,000 destroys of junk_0000…junk_2999 and one
	// of zz_prod_database.
	"numbered-destroys": {change: numberedDestroyChange, n: 3001},
	// keyed-records: DNS records keyed by host name (for_each), a third
	// destroyed and the rest created: keys no range can shorten.
	"keyed-records": {change: keyedRecordChange, n: 3000},
}

func resourceChange(addr, module string, index any, actions []string, before, after map[string]any, unknown map[string]any) map[string]any {
	typ, name, _ := strings.Cut(addr[strings.LastIndex(addr, "gen_"):], ".")
	name, _, _ = strings.Cut(name, "[")
	rc := map[string]any{"address": addr, "mode": "managed", "type": typ, "name": name, "provider_name": provider}
	if index != nil {
		rc["index"] = index
	}
	if module != "" {
		rc["module_address"] = module
	}
	if unknown == nil {
		unknown = map[string]any{}
	}
	rc["change"] = map[string]any{"actions": actions, "before": nilIfEmpty(before), "after": nilIfEmpty(after), "after_unknown": unknown,
		"before_sensitive": sensitivity(before), "after_sensitive": sensitivity(after)}
	return rc
}

func nilIfEmpty(v map[string]any) any {
	if v == nil {
		return nil
	}
	return v
}

// mixedAddress names change i: a third indexed, a third keyed in
// modules, a third resources of their own numbered in their names.
func mixedAddress(i int) (addr, module string, index any) {
	kind := []string{"web", "db", "cache", "queue", "lb", "dns", "bucket", "role"}[i%8]
	switch i % 3 {
	case 0:
		return fmt.Sprintf("gen_instance.%s[%d]", kind, i), "", i
	case 1:
		m := fmt.Sprintf("module.team_%02d", i%37)
		return fmt.Sprintf("%s.gen_instance.%s[\"k%d\"]", m, kind, i), m, fmt.Sprintf("k%d", i)
	}
	return fmt.Sprintf("gen_instance.%s_%04d", kind, i), "", nil
}

func mixedChange(r *rand.Rand, i int) map[string]any {
	addr, module, index := mixedAddress(i)
	before, after := instance(r, i, 0), instance(r, i, 1)
	switch p := r.Intn(100); {
	case p < 23:
		after = instance(r, i, 0)
		delete(after, "id")
		delete(after, "arn")
		return resourceChange(addr, module, index, []string{"create"}, nil, after, map[string]any{"id": true, "arn": true})
	case p < 44:
		return resourceChange(addr, module, index, []string{"update"}, before, after, nil)
	case p < 56:
		rc := resourceChange(addr, module, index, []string{"delete"}, before, nil, nil)
		rc["action_reason"] = "delete_because_no_resource_config"
		return rc
	case p < 63:
		delete(after, "id")
		rc := resourceChange(addr, module, index, []string{"delete", "create"}, before, after, map[string]any{"id": true})
		rc["action_reason"] = "replace_because_cannot_update"
		rc["change"].(map[string]any)["replace_paths"] = [][]any{{"size"}}
		return rc
	case p < 70:
		rc := resourceChange(strings.Replace(addr, "gen_instance.", "data.gen_lookup.", 1), module, index, []string{"read"}, nil,
			map[string]any{"name": fmt.Sprintf("lookup-%d", i)}, map[string]any{"id": true, "value": true})
		rc["mode"], rc["type"] = "data", "gen_lookup"
		rc["action_reason"] = "read_because_config_unknown"
		return rc
	case p < 78:
		rc := resourceChange(addr, module, index, []string{"no-op"}, before, before, nil)
		rc["previous_address"] = strings.Replace(addr, "gen_instance.", "gen_instance.old_", 1)
		return rc
	case p < 86:
		rc := resourceChange(addr, module, index, []string{"no-op"}, before, before, nil)
		rc["change"].(map[string]any)["importing"] = map[string]any{"id": fmt.Sprintf("i-%08x", i)}
		return rc
	case p < 90:
		return resourceChange(addr, module, index, []string{"forget"}, before, nil, nil)
	}
	return resourceChange(addr, module, index, []string{"no-op"}, before, before, nil)
}

// fleetValue is an instance whose numbers follow from its index.
func fleetValue(r *rand.Rand, i, variant int) map[string]any {
	v := instance(r, i, variant)
	v["size"] = i + variant
	v["settings"] = map[string]any{"index": i, "replicas": 3}
	return v
}

func fleetChange(r *rand.Rand, i int) map[string]any {
	switch {
	case i < 92: // fleet[1900..1991] destroyed
		at := 1900 + i
		rc := resourceChange(fmt.Sprintf("gen_instance.fleet[%d]", at), "", at, []string{"delete"}, fleetValue(r, at, 0), nil, nil)
		rc["action_reason"] = "delete_because_count_index"
		return rc
	case i < 92+139: // worker[0..138] created
		at := i - 92
		after := fleetValue(r, at, 0)
		delete(after, "id")
		delete(after, "arn")
		return resourceChange(fmt.Sprintf("gen_instance.worker[%d]", at), "", at, []string{"create"}, nil, after, map[string]any{"id": true, "arn": true})
	}
	at := i - 92 - 139
	return resourceChange(fmt.Sprintf("gen_instance.node[%d]", at), "", at, []string{"update"}, fleetValue(r, at, 0), fleetValue(r, at, 1), nil)
}

func loneDestroyChange(r *rand.Rand, i int) map[string]any {
	if i == 150 {
		rc := resourceChange("gen_instance.prod_db", "", nil, []string{"delete"}, instance(r, i, 0), nil, nil)
		rc["action_reason"] = "delete_because_no_resource_config"
		return rc
	}
	before, after := instance(r, i, 0), instance(r, i, 1)
	delete(after, "id")
	rc := resourceChange(fmt.Sprintf("gen_instance.r_%03d", i), "", nil, []string{"delete", "create"}, before, after, map[string]any{"id": true})
	rc["action_reason"] = "replace_because_cannot_update"
	rc["change"].(map[string]any)["replace_paths"] = [][]any{{"size"}}
	return rc
}

func numberedDestroyChange(r *rand.Rand, i int) map[string]any {
	addr := fmt.Sprintf("gen_instance.junk_%04d", i)
	if i == 3000 {
		addr = "gen_instance.zz_prod_database"
	}
	rc := resourceChange(addr, "", nil, []string{"delete"}, instance(r, i, 0), nil, nil)
	rc["action_reason"] = "delete_because_no_resource_config"
	return rc
}

func keyedRecordChange(_ *rand.Rand, i int) map[string]any {
	key := fmt.Sprintf("host-%d.svc-%d.example.internal", i, i%97)
	addr := fmt.Sprintf("gen_record.r[%q]", key)
	value := map[string]any{"name": fmt.Sprintf("host-%d", i), "ttl": 300}
	if i%3 == 0 {
		return resourceChange(addr, "", key, []string{"delete"}, value, nil, nil)
	}
	return resourceChange(addr, "", key, []string{"create"}, nil, value, nil)
}
