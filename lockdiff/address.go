package lockdiff

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Provider registry hosts.
const (
	HostOpenTofu  = "registry.opentofu.org"
	HostTerraform = "registry.terraform.io"
)

// Address is a provider source address, HOST/NAMESPACE/TYPE.
type Address struct {
	Host, Namespace, Type string
}

func (a Address) String() string { return a.Host + "/" + a.Namespace + "/" + a.Type }

// Short is NAMESPACE/TYPE, the part that names the provider whatever its
// registry.
func (a Address) Short() string { return a.Namespace + "/" + a.Type }

var (
	namePart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9A-Za-z](?:[0-9A-Za-z-]{0,62}[0-9A-Za-z])?$`) })
	hostPart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9A-Za-z.-]+(?::[0-9]+)?$`) })
)

// ParseAddress parses a source address as written in configuration:
// TYPE, NAMESPACE/TYPE or HOST/NAMESPACE/TYPE, with defaultHost filling in
// a missing host and "hashicorp" a missing namespace.
func ParseAddress(s, defaultHost string) (Address, error) {
	parts := strings.Split(s, "/")
	var a Address
	switch len(parts) {
	case 1:
		a = Address{Host: defaultHost, Namespace: "hashicorp", Type: parts[0]}
	case 2:
		a = Address{Host: defaultHost, Namespace: parts[0], Type: parts[1]}
	case 3:
		a = Address{Host: parts[0], Namespace: parts[1], Type: parts[2]}
	default:
		return Address{}, fmt.Errorf("%q is not a provider source address: want HOST/NAMESPACE/TYPE", s)
	}
	if !hostPart().MatchString(a.Host) {
		return Address{}, fmt.Errorf("%q has an invalid registry host %q", s, a.Host)
	}
	if a.Namespace == "-" {
		return Address{}, fmt.Errorf("%q is a legacy address (namespace \"-\") from Terraform 0.12; it cannot be locked", s)
	}
	for _, p := range []string{a.Namespace, a.Type} {
		if !namePart().MatchString(p) {
			return Address{}, fmt.Errorf("%q has an invalid part %q: letters, digits and dashes only", s, p)
		}
	}
	return a, nil
}

// canonical is the normalized form OpenTofu writes: all lower case.
func (a Address) canonical() Address {
	return Address{Host: strings.ToLower(a.Host), Namespace: strings.ToLower(a.Namespace), Type: strings.ToLower(a.Type)}
}

// ValidHost reports whether s is a registry host as a provider address
// names one: a host name, with a port if it has one.
func ValidHost(s string) bool { return hostPart().MatchString(s) }
