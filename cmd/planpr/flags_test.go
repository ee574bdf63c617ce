package main

import "flag"

var update = flag.Bool("update", false, "rewrite expected outputs in testdata/script")
