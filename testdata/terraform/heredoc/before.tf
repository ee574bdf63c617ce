resource "terraform_data" "other" { input = 1 }
resource "terraform_data" "r" { triggers_replace = "alpha\nbeta\n" }
resource "terraform_data" "u" { input = "one\ntwo\nthree\nfour\n" }
resource "terraform_data" "w" { input = "one\ntwo\nthree\n" }
