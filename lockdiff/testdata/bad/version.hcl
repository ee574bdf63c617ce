provider "registry.opentofu.org/hashicorp/aws" {
  version = "v5.0.0" # ERROR: Non-canonical provider version number
  hashes  = ["h1:abc="]
}

provider "registry.opentofu.org/hashicorp/null" {
  version = "3.2" # ERROR: Non-canonical provider version number
  hashes  = ["h1:abc="]
}

provider "registry.opentofu.org/hashicorp/random" {
  version = "latest" # ERROR: Invalid provider version number
  hashes  = ["h1:abc="]
}

provider "registry.opentofu.org/hashicorp/local" { # ERROR: Missing required argument
  hashes = ["h1:abc="]
}
