resource "terraform_data" "keep" { input = "k" }
resource "terraform_data" "gone" { input = "g" }
