# Same length, not a reordering: Terraform pairs by position.
resource "terraform_data" "a" { input = ["one", "four", "three"] }
resource "terraform_data" "b" { input = ["A", "C", "D"] }
# Another length: the longest common subsequence, as OpenTofu does.
resource "terraform_data" "c" { input = ["A", "X", "B", "C"] }
# A reordering: the longest common subsequence too.
resource "terraform_data" "d" { input = ["C", "B", "A"] }
resource "terraform_data" "n" { input = [["x"], ["z"], ["y"]] }
resource "terraform_data" "j" { input = jsonencode(["one", "four", "three"]) }
# Keys padded to the widest in bytes, by runes.
resource "terraform_data" "m" { input = { "ab" = 1, "é" = 3, "ü日本" = 4 } }
