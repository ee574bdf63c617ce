// Command planpr reviews OpenTofu and Terraform changes on pull requests.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
