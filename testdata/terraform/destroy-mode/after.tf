resource "terraform_data" "n" { input = "x" }
