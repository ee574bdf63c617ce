resource "terraform_data" "web" {
  input = "v1"
}

resource "terraform_data" "db" {
  input = { size = 10 }
}

resource "terraform_data" "cache" {
  input = "warm"
}
