package bot

import "github.com/planpr/planpr/bot/actionlog"

// How planpr prints in a workflow step (see package actionlog).
type ActionLog = actionlog.Log

var (
	SafeLog      = actionlog.SafeLog
	NewActionLog = actionlog.New
)
