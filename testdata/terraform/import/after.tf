resource "terraform_data" "i" {}
