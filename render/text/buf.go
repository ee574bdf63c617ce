package text

// Buf is what the text renderer writes to: a byte slice that append
// grows. bytes.Buffer does the same with more bookkeeping per call, and
// the renderer makes a call for every few bytes it writes.
type Buf struct{ b []byte }

// WriteString appends s. While there is room it only reslices: the
// compiler then stores the length alone, where append would store the
// pointer too, behind a write barrier while the collector runs.
func (t *Buf) WriteString(s string) {
	if n := len(t.b); cap(t.b)-n >= len(s) {
		t.b = t.b[:n+len(s)]
		copy(t.b[n:], s)
		return
	}
	t.b = append(t.b, s...)
}

func (t *Buf) WriteByte(c byte) error {
	if n := len(t.b); n < cap(t.b) {
		t.b = t.b[:n+1]
		t.b[n] = c
		return nil
	}
	t.b = append(t.b, c)
	return nil
}

// Write makes a Buf an io.Writer, for fmt.Fprintf.
func (t *Buf) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	return len(p), nil
}

func (t *Buf) Len() int       { return len(t.b) }
func (t *Buf) Cap() int       { return cap(t.b) }
func (t *Buf) Bytes() []byte  { return t.b }
func (t *Buf) String() string { return string(t.b) }
func (t *Buf) Reset()         { t.b = t.b[:0] }
func (t *Buf) Truncate(n int) { t.b = t.b[:n] }

// Grow makes room for n more bytes. It makes the room rather than append
// it: append clears all of it, touching every page, where a large make
// from memory the process has not used yet clears nothing, and a page is
// touched only once text is written to it (a batch's room is a guess).
func (t *Buf) Grow(n int) {
	if cap(t.b)-len(t.b) < n {
		b := make([]byte, len(t.b), len(t.b)+n)
		copy(b, t.b)
		t.b = b
	}
}
