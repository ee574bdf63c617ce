package lazyre

import "testing"

func TestNewCompilesOnce(t *testing.T) {
	re := New(`^a+$`)
	if first, second := re(), re(); first != second || !first.MatchString("aaa") || first.MatchString("ab") {
		t.Fatalf("New gave %p and %p", first, second)
	}
}
