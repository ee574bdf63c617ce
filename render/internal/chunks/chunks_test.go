package chunks

import "testing"

func TestItemsStayWhereTheyWereAdded(t *testing.T) {
	var l List[int]
	var kept []*int
	const n = 40*firstLen + 17
	for i := range n {
		p := l.Add(i)
		if *p != i {
			t.Fatalf("Add(%d) kept %d", i, *p)
		}
		kept = append(kept, p)
	}
	if l.Len() != n {
		t.Fatalf("Len = %d, want %d", l.Len(), n)
	}
	for i, p := range kept {
		if l.At(i) != p {
			t.Fatalf("At(%d) moved: the list copied its items", i)
		}
		if *p != i {
			t.Fatalf("item %d is %d", i, *p)
		}
	}
	room := 0
	for k, c := range l.chunks {
		if cap(c) != firstLen<<k {
			t.Fatalf("chunk %d has room for %d, want %d", k, cap(c), firstLen<<k)
		}
		room += cap(c)
	}
	if room >= 2*n+firstLen {
		t.Fatalf("%d items take room for %d", n, room)
	}
}

func TestShortListTakesWhatItNeeds(t *testing.T) {
	var l List[[64]byte]
	l.Add([64]byte{1})
	if len(l.chunks) != 1 || cap(l.chunks[0]) != firstLen {
		t.Fatalf("one item took %d chunks, the first with room for %d", len(l.chunks), cap(l.chunks[0]))
	}
}
