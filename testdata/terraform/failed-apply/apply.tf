resource "terraform_data" "migrate" {
  input = "v2"
  provisioner "local-exec" {
    command = "echo migrating; exit 3"
  }
}
