provider "registry.opentofu.org/hashicorp/aws" {
  version = "5.0.0"
  hashes  = ["h1:abc="]
}

provider "registry.opentofu.org/hashicorp/aws" { # ERROR: Duplicate provider lock
  version = "5.1.0"
  hashes  = ["h1:def="]
}

module "vpc" { # WARNING: Module lock blocks are not used
  version = "1.0.0"
}
