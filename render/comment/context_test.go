package comment

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"
)

// TestRenderStopsWithItsContext: a render whose context ends stops with
// the context's error — before it starts, and in the middle of a large
// plan (the App's job timeout stops it).
func TestRenderStopsWithItsContext(t *testing.T) {
	plan, _ := genPlan(t, "-n", "2000")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CommentContext(ctx, io.Discard, []CommentPlan{{Path: plan}}, CommentOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: err = %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	n := 0
	w := writerFunc(func(p []byte) (int, error) { n += len(p); return len(p), nil })
	go func() { time.Sleep(time.Millisecond); cancel() }()
	_, err := CommentContext(ctx, w, []CommentPlan{{Path: plan}}, CommentOptions{})
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled during: err = %v", err)
	}
	if err != nil && n > 0 {
		t.Errorf("a cancelled render wrote %d bytes", n)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
