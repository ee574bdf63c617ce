package tofujson

import (
	"fmt"
	"strings"
)

// Action is what a change does to one object, as the plan's "actions" list
// says it. Nested values in a diff only ever use NoOp, Create, Update and
// Delete; the replace and forget variants exist only at resource level.
type Action uint8

const (
	NoOp Action = iota
	Create
	Read
	Update
	Delete
	DeleteThenCreate
	CreateThenDelete
	Forget
	ForgetThenCreate
	CreateThenForget // Terraform's: the new object first, the old one forgotten
)

var actionLists = map[string]Action{
	"no-op":         NoOp,
	"create":        Create,
	"read":          Read,
	"update":        Update,
	"delete":        Delete,
	"delete,create": DeleteThenCreate,
	"create,delete": CreateThenDelete,
	"forget":        Forget,
	"forget,create": ForgetThenCreate,
	"create,forget": CreateThenForget,
}

// ParseActions turns a plan "actions" list into an Action.
func ParseActions(actions []string) (Action, error) {
	if len(actions) == 0 {
		return NoOp, nil // hand-written plans (tfplan2md's examples) leave "no change" empty
	}
	key := strings.Join(actions, ",")
	if a, ok := actionLists[key]; ok {
		return a, nil
	}
	return NoOp, fmt.Errorf("unknown action list [%s]", quoteList(actions))
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// String names the action as the plan's JSON does.
func (a Action) String() string {
	for k, v := range actionLists {
		if v == a {
			return "[" + k + "]"
		}
	}
	return fmt.Sprintf("Action(%d)", uint8(a))
}

// IsReplace reports whether the action destroys or forgets an object and
// creates a new one in its place.
func (a Action) IsReplace() bool {
	return a == DeleteThenCreate || a == CreateThenDelete || a == ForgetThenCreate || a == CreateThenForget
}
