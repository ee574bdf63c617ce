package lockdiff

import "github.com/planpr/planpr/flavor"

// LockFlavor says which tool wrote a lock file from the registries its
// providers come from: all from registry.terraform.io is Terraform, all
// from registry.opentofu.org OpenTofu; a mix, or other registries only,
// is Unknown.
func LockFlavor(files ...*LockFile) flavor.Flavor {
	var tf, tofu bool
	for _, f := range files {
		for _, p := range f.Providers {
			switch p.Address.Host {
			case HostTerraform:
				tf = true
			case HostOpenTofu:
				tofu = true
			}
		}
	}
	switch {
	case tf && !tofu:
		return flavor.Terraform
	case tofu && !tf:
		return flavor.OpenTofu
	}
	return flavor.Unknown
}

// speak puts every finding of fd into f's words: `terraform init` for a
// Terraform user, `tofu init` for the others.
func (fd *FileDiff) speak(f flavor.Flavor) {
	fd.Flavor = f
	say := func(fs []Finding) {
		for i := range fs {
			fs[i].Message = f.Say(fs[i].Message)
		}
	}
	say(fd.Findings)
	for _, p := range fd.Providers {
		say(p.Findings)
	}
}
