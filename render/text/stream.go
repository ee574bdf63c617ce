package text

import (
	"io"
	"strings"

	"github.com/planpr/planpr/render/mask"
	"github.com/planpr/planpr/render/md"
	"github.com/planpr/planpr/render/review"
	"github.com/planpr/planpr/render/tofujson"
	"github.com/planpr/planpr/render/tofujson/uistream"
)

// StreamText prints a stream as the human log it stands for: each
// message's own text, with sensitive output values masked.
func StreamText(w io.Writer, files *tofujson.Files, path string) error {
	st, err := review.ReadStream(files, path)
	if err != nil {
		return err
	}
	masker := mask.NewMasker()
	st.AddSecrets(masker)
	var b strings.Builder
	_, err = uistream.ReadStreamFile(files, path, func(m *uistream.Message) error {
		if m.Type != "version" && m.Text != "" {
			b.WriteString(md.Visible(masker.Mask(m.Text)) + "\n")
		}
		return nil
	})
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, b.String())
	return err
}
