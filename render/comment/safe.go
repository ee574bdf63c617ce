package comment

import (
	"github.com/planpr/planpr/render/internal/safe"
)

// The one way untrusted values reach Markdown (see package safe).
var (
	safeCode    = safe.Code
	safeText    = safe.Text
	safeHTML    = safe.HTML
	safeMessage = safe.Message
	tableCode   = safe.TableCode
)
