resource "terraform_data" "i" { input = "x" }
