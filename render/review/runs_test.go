package review

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// referenceRuns is numberRuns the plain way: every value parsed with
// strconv.Atoi, all of them sorted, the runs counted at the end.
func referenceRuns(values []string, limit int) ([][2]int, int, bool) {
	var nums []int
	width := 0
	for _, v := range values {
		n, err := strconv.Atoi(v)
		if err != nil || !isDigits(v) {
			return nil, 0, false
		}
		if len(v) > 1 && v[0] == '0' {
			width = len(v)
		}
		nums = append(nums, n)
	}
	for _, v := range values {
		if width > 0 && len(v) != width {
			return nil, 0, false
		}
	}
	slices.Sort(nums)
	nums = slices.Compact(nums)
	var runs [][2]int
	for _, n := range nums {
		if k := len(runs); k > 0 && runs[k-1][1]+1 == n {
			runs[k-1][1] = n
		} else {
			runs = append(runs, [2]int{n, n})
		}
	}
	if limit > 0 && len(runs) > limit {
		return nil, 0, false
	}
	return runs, width, true
}

// numberRuns skips sorting values already in order and makes no runs past
// its limit; whatever the order, it gives what sorting everything gives.
func TestNumberRunsAsSortingEverything(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	odd := []string{"", "+1", "-1", "1a", "٣", "9223372036854775807", "9223372036854775808", "0123456789012345678", "007", "7"}
	for trial := range 5000 {
		n := rng.IntN(30)
		values := make([]string, n)
		for i := range values {
			switch r := rng.IntN(100); {
			case r < 3:
				values[i] = odd[rng.IntN(len(odd))]
			case r < 60: // in order, runs and repeats
				values[i] = strconv.Itoa(i/2 + rng.IntN(2)*i)
			default:
				values[i] = strconv.Itoa(rng.IntN(40))
			}
		}
		if trial%7 == 0 { // leading zeros, one width
			for i := range values {
				values[i] = fmt.Sprintf("%04d", i*(1+rng.IntN(3)))
			}
		}
		for _, limit := range []int{0, 1, 3, 8} {
			runs, width, ok := numberRuns(values, limit)
			wantRuns, wantWidth, wantOK := referenceRuns(values, limit)
			if ok != wantOK || ok && (width != wantWidth || !slices.Equal(runs, wantRuns)) {
				t.Fatalf("numberRuns(%q, %d) = %v %d %v, want %v %d %v", values, limit, runs, width, ok, wantRuns, wantWidth, wantOK)
			}
		}
	}
}

func TestWriteRunsKeepsTheWidth(t *testing.T) {
	for _, c := range []struct {
		runs  [][2]int
		width int
		want  string
	}{
		{[][2]int{{0, 3}, {7, 7}, {9, 10}}, 0, "0..3,7,9..10"},
		{[][2]int{{0, 2999}}, 4, "0000..2999"},
		{[][2]int{{42, 42}, {100, 12345}}, 3, "042,100..12345"},
		{nil, 2, ""},
	} {
		if got := writeRuns(c.runs, c.width); got != c.want {
			t.Errorf("writeRuns(%v, %d) = %q, want %q", c.runs, c.width, got, c.want)
		}
	}
}
