# A multi-line string that forces replacement becomes unknown.
resource "terraform_data" "script" {
  triggers_replace = "echo one\necho two\n${timestamp()}\n"
  input            = "kept"
}
