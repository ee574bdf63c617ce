variable "name" {
  type = string
}

resource "terraform_data" "logs" {
  // the call's name, in the logs' input
  input = "logs-${var.name}"
}

resource "terraform_data" "audit" {
  input            = "audit-${var.name}"
  triggers_replace = [var.name]
}
