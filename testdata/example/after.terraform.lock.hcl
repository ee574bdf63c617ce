# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/aws" {
  version     = "6.0.0"
  constraints = ">= 5.0.0, < 7.0.0"
  hashes = [
    "h1:3NotARealHashJustAnExampleOfTheShapeOfOne00000=",
    "zh:11a7a2b1ad2f4e8ca4b3e04c3b2b8f8d0f5c5d9a0e2c3f4a5b6c7d8e9f0a1b2c",
    "zh:22b8b3c2be3f5f9db5c4f15d4c3c9f9e1f6d6eab1f3d4f5b6c7d8e9f0a1b2c3d",
  ]
}

provider "registry.opentofu.org/hashicorp/random" {
  version = "3.6.3"
  hashes = [
    "h1:Qw1xLqZ8mJ2H4gP0tCz7bYfR5nKdV3sXeA6uW9oI1jE=",
    "zh:9c1b64dbe1a3df73b0f8cf2fa3c0d6fb1e2a6c1f7c8d5e4b3a2f1e0d9c8b7a6f",
    "zh:8d2c75ecf2b4eb0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e",
  ]
}

provider "registry.opentofu.org/hashicorp/tls" {
  version = "4.1.0"
  hashes = [
    "h1:y6X7lAz4ly0dNqlE8cXkFE4nKSmBx5Dn3vd0hOgSn3o=",
  ]
}

provider "registry.opentofu.org/integrations/github" {
  version = "6.3.1"
  hashes = [
    "h1:2R5zCdpaEh9/W0X3T6vWhGW8e4iJh7jJ0gNczV9lO6s=",
    "zh:25ae1cb97ec528e6b7e9330489f4a33c9d4fb58c4e7a2ec8c8d1ea63c5d5fb1a",
    "zh:3b6d1f1fc0f1f85ea8d27a55e1e1e0f7ab5b6f0ac2f0b7e3e1b6c0c6ad8f0d12",
    "zh:4c7e2f3a1b0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f",
  ]
}
