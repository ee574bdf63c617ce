# Shadowed by versions.tofu: OpenTofu reads only the .tofu file.
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 4.0"
    }
  }
}
