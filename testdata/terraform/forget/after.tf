resource "terraform_data" "keep" { input = "k2" }
removed {
  from = terraform_data.gone
  lifecycle { destroy = false }
}
