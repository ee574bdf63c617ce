provider "hashicorp/aws" { # ERROR: Invalid provider source address
  version = "5.0.0"
  hashes  = ["h1:abc="]
}

provider "registry.opentofu.org/HashiCorp/aws" { # ERROR: Non-normalized provider source address
  version = "5.0.0"
  hashes  = ["h1:abc="]
}

provider "registry.terraform.io/-/aws" { # ERROR: Invalid provider source address
  version = "2.0.0"
  hashes  = ["h1:abc="]
}
