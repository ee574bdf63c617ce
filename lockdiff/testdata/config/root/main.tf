resource "aws_s3_bucket" "logs" {
  bucket = "acme-logs"
}

resource "null_resource" "wait" {}
