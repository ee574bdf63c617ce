# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/aws" {
  version     = "5.82.2"
  constraints = "~> 5.0"
  hashes = [
    "h1:0Kb1RZ0YXfJ1ATOKEBeHeH7cXNT0xxq6uYhcmM8wz2I=",
    "zh:0262fc96012fb7e173e1b7beadd46dfc25b1dc7eaef95b90e936fc454724f1c8",
    "zh:397413613d27f4f54d16efcbf4f8a43c059bd8d827fe34287522ae182a992f9b",
    "zh:436c0c5d56e1da4f0a4c13129e12a0b519d12ab116aed52029b183f9806866f3",
  ]
}

provider "registry.opentofu.org/hashicorp/random" {
  version = "3.6.3"
  hashes = [
    "h1:f6jXn4MCv6fpxTr+k2hHvsBgFVqR5KNndbEoJQhnuhs=",
    "zh:1bfd2e54b4eee8c761a40b6d99d45880b3a71abc18a9a7a5319204da9c8363b2",
    "zh:21a15ac74adb8ba499aab989a4248321b51946e5431219b56fc827e565776714",
  ]
}

provider "registry.opentofu.org/integrations/github" {
  version = "6.3.1"
  hashes = [
    "h1:2R5zCdpaEh9/W0X3T6vWhGW8e4iJh7jJ0gNczV9lO6s=",
    "zh:25ae1cb97ec528e6b7e9330489f4a33c9d4fb58c4e7a2ec8c8d1ea63c5d5fb1a",
    "zh:3b6d1f1fc0f1f85ea8d27a55e1e1e0f7ab5b6f0ac2f0b7e3e1b6c0c6ad8f0d12",
  ]
}
