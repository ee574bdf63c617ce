resource "terraform_data" "a" { input = ["one", "two", "three"] }
resource "terraform_data" "b" { input = ["A", "B", "C"] }
resource "terraform_data" "c" { input = ["A", "B", "C"] }
resource "terraform_data" "d" { input = ["A", "B", "C"] }
resource "terraform_data" "n" { input = [[], ["x"], ["y", "z"]] }
resource "terraform_data" "j" { input = jsonencode(["one", "two", "three"]) }
resource "terraform_data" "m" { input = { "ab" = 1, "é" = 2, "ü日本" = 3 } }
