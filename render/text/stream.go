package text

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
	"github.com/planpr/planpr/render/tofujson/uistream"
)

// StreamText prints a stream as the human log it stands for: each
// message's own text, a diagnostic with where it is and its detail, with
// sensitive output values masked. ErrStreamFailed says the stream's run
// failed (an error, a failed apply or test), once it is printed.
func StreamText(w io.Writer, files *tofujson.Files, path string) error {
	st, err := review.ReadStream(files, path)
	if err != nil {
		return err
	}
	masker := mask.NewMasker()
	st.AddSecrets(masker)
	var b strings.Builder
	say := func(s string) { b.WriteString(md.Visible(masker.Mask(s)) + "\n") }
	_, err = uistream.ReadStreamFile(files, path, func(m *uistream.Message) error {
		switch {
		case m.Type == "diagnostic" && m.Diagnostic != nil:
			writeDiagnostic(say, m.Diagnostic)
		case m.Type != "version" && m.Text != "":
			say(m.Text)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if _, err = io.WriteString(w, b.String()); err != nil {
		return err
	}
	if st.Failed() {
		return ErrStreamFailed
	}
	return nil
}

// ErrStreamFailed is a stream whose run failed: its text says how.
var ErrStreamFailed = errors.New("the stream's run failed (above)")

// writeDiagnostic writes a diagnostic as the tools' human output does:
// its severity and summary, where it is with the source line, its detail.
func writeDiagnostic(say func(string), d *uistream.Diagnostic) {
	severity := "Error"
	if d.Severity == "warning" {
		severity = "Warning"
	}
	say(severity + ": " + d.Summary)
	if r := d.Range; r != nil && r.Filename != "" {
		say("")
		where := fmt.Sprintf("  on %s line %d", r.Filename, r.Start.Line)
		if sn := d.Snippet; sn != nil && sn.Context != nil && *sn.Context != "" {
			where += ", in " + *sn.Context
		}
		say(where + ":")
		if sn := d.Snippet; sn != nil && sn.Code != "" {
			for i, line := range strings.Split(sn.Code, "\n") {
				say(fmt.Sprintf("  %3d: %s", sn.StartLine+i, line))
			}
		}
	}
	if d.Detail != "" {
		say("")
		say(d.Detail)
	}
	say("")
}
