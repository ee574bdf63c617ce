terraform {
  required_version = ">= 1.5"
}

module "a" {
  source = "./modules/x"
  name   = "a"
}

module "b" {
  source = "./modules/x"
  name   = "b"
}

resource "terraform_data" "web" {
  // one per region
  for_each = toset(["eu", "us"])

  input = "web-${each.key}"
}

resource "terraform_data" "kept" {
  input = "unchanged"
}
