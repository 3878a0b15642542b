//go:build unix

package outfile

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// exitBySignal ends shamir as sig would have, so that a shell or a script
// sees that it was stopped by a signal: a shell script that runs shamir stops
// at a Ctrl-C instead of going on to its next command. For SIGQUIT, whose
// default in a Go program prints every goroutine's stack, it exits with status
// 128+3, as a shell reports a process that SIGQUIT ended.
func exitBySignal(sig os.Signal) {
	s := sig.(syscall.Signal)
	if s != syscall.SIGQUIT {
		signal.Reset(s)
		syscall.Kill(syscall.Getpid(), s)
		time.Sleep(time.Second) // the signal is delivered meanwhile
	}
	os.Exit(128 + int(s))
}
