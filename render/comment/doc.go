// Package comment owns the pull-request comment planpr posts over a
// review: its levels and size budget (warnings first, alike changes
// grouped), the lock-file section, the state inventory, UI-stream results
// and the footer, for every size a report asks for from one read. The
// facts come from render/review, the OpenTofu text from render/text, the
// machine summary from render/summary; every untrusted value reaches
// Markdown masked (render/mask), then escaped (render/md), in safe.go.
// Only render/report builds comments: runners ask it.
package comment
