package shape

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkShape hashes changes like genplan's: names, ids, addresses,
// a 40-line script and a JSON policy, numbered by their index.
func BenchmarkShape(b *testing.B) {
	var pairs [][2]string
	size := 0
	for i := range 100 {
		var script []string
		for k := range 40 {
			script = append(script, fmt.Sprintf("echo 'step %d of instance %d' \\u0026\\u0026 systemctl restart app-%d", k, i, k))
		}
		value := fmt.Sprintf(`{"arn":"arn:aws:ec2:eu-west-1:123456789012:instance/i-%08x","id":"i-%08x","name":"web-%d","policy":"{\"Statement\":[{\"Action\":[\"s3:GetObject\"],\"Resource\":\"arn:aws:s3:::bucket-%d/*\"}]}","size":2,"tags":{"Name":"web-%d","team":"platform"},"user_data":"%s"}`,
			i, i, i, i, i, strings.Join(script, `\n`))
		pairs = append(pairs, [2]string{value, value})
		size += 2 * len(value)
	}
	changes := readChanges(b, pairs...)
	b.SetBytes(int64(size))
	for b.Loop() {
		for i := range changes {
			Of(&changes[i], []string{fmt.Sprint(i)})
		}
	}
}
