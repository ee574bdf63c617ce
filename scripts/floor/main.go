// Command floor reads a JSON file once with jsontext.Decoder.ReadToken and
// nothing else: the floor a plan reader is measured against.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/go-json-experiment/json/jsontext"
)

func main() {
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	dec := jsontext.NewDecoder(bufio.NewReaderSize(f, 1<<16))
	n := 0
	for {
		if _, err := dec.ReadToken(); err == io.EOF {
			break
		} else if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		n++
	}
	fmt.Println(n, "tokens")
}
