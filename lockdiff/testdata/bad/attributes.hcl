provider "registry.opentofu.org/hashicorp/aws" {
  version     = "5.0.0"
  constraints = "~> banana" # ERROR: Invalid provider version constraints
  hashes      = ["h1:abc="]
  checksum    = "sha256" # ERROR: Unsupported argument
}

provider "registry.opentofu.org/hashicorp/null" {
  version = "3.2.0"
  hashes  = [] # ERROR: Empty hashes list
}

provider "registry.opentofu.org/hashicorp/random" {
  version = "3.6.0"
  hashes = [
    "h1:abc=",
    "nocolon", # ERROR: Invalid provider hash
    "future:kept-unjudged",
  ]
}

version = "1" # ERROR: Unsupported argument
