package tofujson

import (
	"encoding/json"

	"github.com/planpr/planpr/render/tofujson/internal/jsonread"
)

// Plan holds the small, document-wide parts of a plan. Resource changes and
// drift are not kept here: ReadPlan streams them to a visitor one at a time,
// so memory follows the largest single resource, not the plan.
type Plan struct {
	FormatVersion      string              `json:"format_version"`
	TerraformVersion   string              `json:"terraform_version"`
	Variables          map[string]Variable `json:"variables"`
	OutputChanges      map[string]Change   `json:"output_changes"`
	RelevantAttributes []ResourceAttr      `json:"relevant_attributes"`
	Errored            bool                `json:"errored"`
	Timestamp          string              `json:"timestamp"`
	// Configuration is the raw "configuration" section, kept to recognise
	// nested blocks when no provider schemas are given.
	Configuration json.RawMessage `json:"configuration"`

	// Checks are the results of check blocks, pre- and postconditions and
	// variable validations.
	Checks []Check `json:"checks"`

	// Terraform only: changes it could not plan yet, and the actions the
	// plan invokes (Terraform 1.14's action blocks).
	DeferredChanges   []DeferredChange   `json:"deferred_changes"`
	ActionInvocations []ActionInvocation `json:"action_invocations"`

	// Which top-level sections the document had: a state document has
	// "values" and none of the plan's sections.
	Sections map[string]bool `json:"-"`
}

// Variable is one entry of the plan's "variables" object.
type Variable struct {
	Value any `json:"value"`
}

// ResourceAttr is one entry of "relevant_attributes": a resource address and
// an attribute path (a JSON array of keys and indices).
type ResourceAttr struct {
	Resource string `json:"resource"`
	Attr     []any  `json:"attribute"`
}

// ResourceChange is one element of "resource_changes" or "resource_drift".
type ResourceChange struct {
	Address         string          `json:"address"`
	PreviousAddress string          `json:"previous_address"`
	ModuleAddress   string          `json:"module_address"`
	Mode            string          `json:"mode"`
	Type            string          `json:"type"`
	Name            string          `json:"name"`
	Index           json.RawMessage `json:"index"`
	Deposed         string          `json:"deposed"`
	ProviderName    string          `json:"provider_name"`
	Change          Change          `json:"change"`
	ActionReason    string          `json:"action_reason"`

	// Span is where the change lies in the plan file, set when it was read
	// from one.
	Span Span `json:"-"`
}

// Moved reports whether the resource instance moved to a new address.
func (rc *ResourceChange) Moved() bool {
	return rc.PreviousAddress != "" && rc.PreviousAddress != rc.Address
}

// Importing reports whether the plan imports this resource instance.
func (rc *ResourceChange) Importing() bool { return rc.Change.Importing != nil }

// Change is the "change" representation shared by resources and outputs.
// Read lazily (ReadOptions.Lazy), the five values stay raw JSON until
// Decode.
type Change struct {
	raw             *rawValues // kept after Decode (see Shape)
	decoded         bool
	Actions         []string   `json:"actions"`
	Before          any        `json:"before"`
	After           any        `json:"after"`
	AfterUnknown    any        `json:"after_unknown"`
	BeforeSensitive any        `json:"before_sensitive"`
	AfterSensitive  any        `json:"after_sensitive"`
	ReplacePaths    [][]any    `json:"replace_paths"`
	Importing       *Importing `json:"importing"`
	GeneratedConfig string     `json:"generated_config"`
}

// Importing describes an import planned for a resource instance.
type Importing struct {
	ID       string          `json:"id"`
	Identity json.RawMessage `json:"identity"`
}

// Check is the result of one checkable object (a check block, or a
// resource, output or variable with conditions).
type Check struct {
	Address   CheckAddress    `json:"address"`
	Status    string          `json:"status"` // pass, fail, error, unknown
	Instances []CheckInstance `json:"instances"`
}

// CheckAddress names a checkable object.
type CheckAddress struct {
	Kind      string `json:"kind"`
	ToDisplay string `json:"to_display"`
}

// CheckInstance is the result for one instance of a checkable object.
type CheckInstance struct {
	Address  CheckAddress   `json:"address"`
	Status   string         `json:"status"`
	Problems []CheckProblem `json:"problems"`
}

// CheckProblem is one failed condition's message.
type CheckProblem struct {
	Message string `json:"message"`
}

// SensitiveVariables returns the values of the root module's variables
// declared sensitive. The plan's "variables" section holds them in clear.
func (p *Plan) SensitiveVariables() map[string]any {
	var cfg struct {
		RootModule struct {
			Variables map[string]struct {
				Sensitive bool `json:"sensitive"`
			} `json:"variables"`
		} `json:"root_module"`
	}
	out := map[string]any{}
	if len(p.Configuration) == 0 || json.Unmarshal(p.Configuration, &cfg) != nil {
		return out
	}
	for name, v := range cfg.RootModule.Variables {
		if val, ok := p.Variables[name]; ok && v.Sensitive {
			out[name] = val.Value
		}
	}
	return out
}

type rawValues struct {
	values [5][]byte // before, after, after_unknown, before_sensitive, after_sensitive
	// Where before's and after's members begin, when the reader kept it:
	// finding what is sensitive jumps to the marked ones (MarkedStringsIndexed).
	beforeIndex, afterIndex []uint32
}

// RawValues are a lazily read change's values as the plan wrote them —
// before, after, after_unknown, before_sensitive, after_sensitive — or
// nil for a change decoded when read. The slice is the change's: read it.
func (c *Change) RawValues() [][]byte {
	if r := c.raw; r != nil {
		return r.values[:]
	}
	return nil
}

// MemberOffsets are where a lazily read change's before and after
// members begin, when the reader kept them.
func (c *Change) MemberOffsets() (before, after []uint32) {
	if c.raw == nil {
		return nil, nil
	}
	return c.raw.beforeIndex, c.raw.afterIndex
}

// Decode fills Before, After, AfterUnknown, BeforeSensitive and
// AfterSensitive from a lazily read change; it does nothing the second time.
func (c *Change) Decode() error {
	if c.raw == nil || c.decoded {
		return nil
	}
	c.decoded = true
	for i, raw := range c.raw.values {
		v, err := jsonread.DecodeRaw(raw)
		if err != nil {
			return err
		}
		*c.value(i) = v
	}
	return nil
}

// value is where a change's i-th value is decoded (see changeValues).
func (c *Change) value(i int) *any {
	return [...]*any{&c.Before, &c.After, &c.AfterUnknown, &c.BeforeSensitive, &c.AfterSensitive}[i]
}

// index is where the places of the i-th value's members are kept, or nil.
func (r *rawValues) index(i int) *[]uint32 {
	return [...]*[]uint32{&r.beforeIndex, &r.afterIndex, nil, nil, nil}[i]
}

// Sensitive calls add with every string the change marks sensitive, before
// or after, without decoding the rest of a lazily read change.
func (c *Change) Sensitive(add func(string, SecretKind)) error {
	if c.raw == nil {
		CollectMarked(c.Before, c.BeforeSensitive, add)
		CollectMarked(c.After, c.AfterSensitive, add)
		return nil
	}
	return c.SensitiveWork().Run(nil, add)
}

// SensitiveWork is the part of a lazily read change that holds sensitive
// values (see jsonread.SensitiveWork).
type SensitiveWork = jsonread.SensitiveWork

// MaskCache remembers decoded sensitivity mirrors (see jsonread.MaskCache).
type MaskCache = jsonread.MaskCache

// SensitiveWork returns what Sensitive would scan (nothing when no mirror
// marks anything).
func (c *Change) SensitiveWork() SensitiveWork {
	if c.raw == nil {
		return SensitiveWork{}
	}
	r := c.raw
	return jsonread.NewSensitiveWork(jsonread.MarkedValue{Value: r.values[0], Mask: r.values[3], Members: r.beforeIndex},
		jsonread.MarkedValue{Value: r.values[1], Mask: r.values[4], Members: r.afterIndex})
}

// CollectMarked calls add with every string of value that the sensitivity
// mirror marks sensitive.
func CollectMarked(value, sensitive any, add func(string, SecretKind)) {
	jsonread.CollectMarked(value, sensitive, add)
}

// DeferredChange is one element of Terraform's "deferred_changes": a
// change it will only know in a later plan, and why.
type DeferredChange struct {
	Reason         string         `json:"reason"`
	ResourceChange ResourceChange `json:"resource_change"`
}

// ActionInvocation is one element of Terraform's "action_invocations".
// InvokeActionTrigger is set for an action the command line invoked
// (`terraform apply -invoke`); LifecycleActionTrigger for one a resource's
// change triggers.
type ActionInvocation struct {
	Address                string                  `json:"address"`
	Type                   string                  `json:"type"`
	Name                   string                  `json:"name"`
	ConfigValues           any                     `json:"config_values"`
	ConfigSensitive        any                     `json:"config_sensitive"`
	ConfigUnknown          any                     `json:"config_unknown"`
	ProviderName           string                  `json:"provider_name"`
	InvokeActionTrigger    *InvokeActionTrigger    `json:"invoke_action_trigger"`
	LifecycleActionTrigger *LifecycleActionTrigger `json:"lifecycle_action_trigger"`
}

// InvokeActionTrigger says who invoked an action from the command line.
type InvokeActionTrigger struct {
	CallingResourceAddress string `json:"calling_resource_address"`
}

// LifecycleActionTrigger says which resource's change triggers an action.
type LifecycleActionTrigger struct {
	TriggeringResourceAddress string `json:"triggering_resource_address"`
	ActionTriggerEvent        string `json:"action_trigger_event"`
}

// StringEnd is where the JSON string whose body starts at v[i] ends: the
// place of its closing quote, len(v) when there is none; and whether the
// string holds an escaped quote (\", as a string holding JSON does).
func StringEnd(v []byte, i int) (end int, escapedQuote bool) {
	return jsonread.StringEndQuotes(v, i)
}

// DecodeValue decodes one raw JSON value of a plan as Change.Decode does:
// objects as Object, numbers as json.Number.
func DecodeValue(raw []byte) (any, error) { return jsonread.DecodeRaw(raw) }
