provider "registry.opentofu.org/hashicorp/aws" {
  version = "5.0.0"
  hashes  = ["h1:abc=" "h1:def="] # ERROR: Missing item separator
}
