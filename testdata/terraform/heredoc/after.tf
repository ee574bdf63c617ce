resource "terraform_data" "other" { input = 2 }
# Becomes unknown and forces replacement: only the closing line says so.
resource "terraform_data" "r" { triggers_replace = "${terraform_data.other.output}\nbeta\n" }
# As many lines: removed and added lines interleave, line by line.
resource "terraform_data" "u" { input = "one\nTWO\nTHREE\nfour\n" }
# More lines: the longest common subsequence.
resource "terraform_data" "w" { input = "one\nTWO\nTHREE\nfour\nfive\n" }
