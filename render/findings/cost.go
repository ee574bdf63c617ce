package findings

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"
)

// Cost is what an Infracost report (`infracost breakdown --format json`
// or `infracost diff --format json`) says a plan does to the monthly
// bill: before and after, the difference, and each resource's share of
// it, in the report's currency. Amounts are exact decimals.
type Cost struct {
	Currency string
	// Past, Now and Delta are monthly totals; Past is nil when the report
	// has no prior breakdown (then Delta is Now).
	Past, Now, Delta *big.Rat
	// Resources maps a resource address to its monthly difference.
	Resources map[string]*big.Rat
}

// IsInfracost says whether a JSON document's top-level names are an
// Infracost report's: its projects and currency.
func IsInfracost(names map[string]bool) bool { return names["projects"] && names["currency"] }

type infracostReport struct {
	Version  string             `json:"version"`
	Currency string             `json:"currency"`
	Projects []infracostProject `json:"projects"`
}

type infracostProject struct {
	Past      *infracostBreakdown `json:"pastBreakdown"`
	Breakdown *infracostBreakdown `json:"breakdown"`
	Diff      *infracostBreakdown `json:"diff"`
}

type infracostBreakdown struct {
	Resources []struct {
		Name        string  `json:"name"`
		MonthlyCost *string `json:"monthlyCost"`
	} `json:"resources"`
	TotalMonthlyCost *string `json:"totalMonthlyCost"`
}

// ReadInfracost reads an Infracost JSON report: every project's totals
// summed (a root's report may hold several), each resource's monthly
// difference by its address. file names it in errors, located.
func ReadInfracost(file string, data []byte) (*Cost, error) {
	var r infracostReport
	if err := decode(file, data, &r, "an Infracost report"); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(r.Version, "0.") {
		return nil, &Error{File: file, Msg: fmt.Sprintf("Infracost report version %q: planpr reads 0.x", r.Version)}
	}
	c := &Cost{Currency: r.Currency, Now: new(big.Rat), Delta: new(big.Rat), Resources: map[string]*big.Rat{}}
	amount := func(s *string, what string) (*big.Rat, error) {
		if s == nil || *s == "" {
			return new(big.Rat), nil
		}
		v, ok := ParseAmount(*s)
		if !ok {
			return nil, &Error{File: file, Msg: fmt.Sprintf("%s %q is not an amount", what, *s)}
		}
		return v, nil
	}
	for _, p := range r.Projects {
		if p.Breakdown != nil {
			now, err := amount(p.Breakdown.TotalMonthlyCost, "totalMonthlyCost")
			if err != nil {
				return nil, err
			}
			c.Now.Add(c.Now, now)
		}
		if p.Past != nil {
			past, err := amount(p.Past.TotalMonthlyCost, "the past totalMonthlyCost")
			if err != nil {
				return nil, err
			}
			if c.Past == nil {
				c.Past = new(big.Rat)
			}
			c.Past.Add(c.Past, past)
		}
		if p.Diff != nil {
			for _, res := range p.Diff.Resources {
				if res.Name == "" {
					continue
				}
				d, err := amount(res.MonthlyCost, "a resource's monthlyCost")
				if err != nil {
					return nil, err
				}
				if prev := c.Resources[res.Name]; prev != nil {
					d = new(big.Rat).Add(prev, d)
				}
				c.Resources[res.Name] = d
			}
		}
	}
	c.Delta.Set(c.Now)
	if c.Past != nil {
		c.Delta.Sub(c.Now, c.Past)
	}
	return c, nil
}

// Add adds another report's cost of the same root to c: totals and each
// resource's difference. Reports in two currencies cannot be added.
func (c *Cost) Add(o *Cost) error {
	if o.Currency != c.Currency {
		return fmt.Errorf("an Infracost report in %s beside one in %s: one currency per root", o.Currency, c.Currency)
	}
	c.Now.Add(c.Now, o.Now)
	c.Delta.Add(c.Delta, o.Delta)
	if o.Past != nil {
		if c.Past == nil {
			c.Past = new(big.Rat)
		}
		c.Past.Add(c.Past, o.Past)
	}
	for a, d := range o.Resources {
		if prev := c.Resources[a]; prev != nil {
			d = new(big.Rat).Add(prev, d)
		}
		c.Resources[a] = d
	}
	return nil
}

// Money writes an amount as a report says it: two decimals, thousands
// grouped, a sign when signed ("+1,361.31 USD").
func Money(v *big.Rat, currency string, signed bool) string {
	s := v.FloatString(2)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	out := b.String() + "." + frac
	switch {
	case neg:
		out = "−" + out
	case signed && v.Sign() > 0:
		out = "+" + out
	}
	if currency != "" {
		out += " " + currency
	}
	return out
}

// Percent is delta as a percentage of past, one decimal ("" when past
// is zero or unknown).
func Percent(delta, past *big.Rat) string {
	if past == nil || past.Sign() == 0 {
		return ""
	}
	p := new(big.Rat).Quo(delta, past)
	p.Mul(p, big.NewRat(100, 1))
	s := p.FloatString(1)
	if p.Sign() > 0 {
		s = "+" + s
	}
	return s + "%"
}

// amountPattern is a plain decimal: no exponent (1e999999999 would be
// computed, whole), at most 80 digits each side of the point.
var amountPattern = regexp.MustCompile(`^-?[0-9]{1,80}(\.[0-9]{1,80})?$`)

// ParseAmount reads a plain decimal amount exactly.
func ParseAmount(s string) (*big.Rat, bool) {
	if !amountPattern.MatchString(s) {
		return nil, false
	}
	return new(big.Rat).SetString(s)
}
