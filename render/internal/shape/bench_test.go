package shape

import (
	"fmt"
	"strings"
	"testing"

	"github.com/planpr/planpr/render/tofujson"
)

// BenchmarkShape hashes changes like genplan's: names, ids, addresses,
// a 40-line script and a JSON policy, numbered by their index.
func BenchmarkShape(b *testing.B) {
	var changes []shaped
	size := 0
	for i := range 100 {
		var script []string
		for k := range 40 {
			script = append(script, fmt.Sprintf("echo 'step %d of instance %d' \\u0026\\u0026 systemctl restart app-%d", k, i, k))
		}
		value := fmt.Sprintf(`{"arn":"arn:aws:ec2:eu-west-1:123456789012:instance/i-%08x","id":"i-%08x","name":"web-%d","policy":"{\"Statement\":[{\"Action\":[\"s3:GetObject\"],\"Resource\":\"arn:aws:s3:::bucket-%d/*\"}]}","size":2,"tags":{"Name":"web-%d","team":"platform"},"user_data":"%s"}`,
			i, i, i, i, i, strings.Join(script, `\n`))
		c := shaped{tofujson.NewRawChange([]byte(value), []byte(value), []byte("{}"), []byte("{}"), []byte("{}"))}
		changes = append(changes, c)
		size += 2 * len(value)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for i, c := range changes {
			c.Shape([]string{fmt.Sprint(i)})
		}
	}
}
