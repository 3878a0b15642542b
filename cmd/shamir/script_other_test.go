//go:build !unix

package main

import (
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

var signalsByName = map[string]os.Signal{"INT": os.Interrupt}

func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	ts.Fatalf("no named pipes here")
}
