resource "terraform_data" "t" { input = "x" }
