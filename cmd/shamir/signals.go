package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals are the signals after which shamir removes what it had begun
// to write and exits: Ctrl-C, kill, a closed terminal and Ctrl-\.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// signalNames names the stop signals in messages.
var signalNames = map[os.Signal]string{
	os.Interrupt:    "SIGINT",
	syscall.SIGTERM: "SIGTERM",
	syscall.SIGHUP:  "SIGHUP",
	syscall.SIGQUIT: "SIGQUIT",
}

// catchSignals removes the outputs of a run stopped by one of the stop
// signals before exiting as that signal would have made it. A signal that
// was ignored when shamir started stays ignored: a program started with
// nohup, or in the background by a shell without job control, is meant to
// run on through a hangup or a Ctrl-C at the terminal.
func catchSignals() {
	var sigs []os.Signal
	for _, s := range stopSignals {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	if len(sigs) == 0 {
		return
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, sigs...)
	go func() {
		sig := <-c
		restoreTerminal()
		// live stays locked: no file or folder is created from now on.
		live.Lock()
		live.stopping = true
		removed := false
		for s := range live.sets {
			if s.abortLocked() {
				removed = true
			}
		}
		lead := ""
		if isTerminal(os.Stderr) {
			lead = "\n" // after the ^C the terminal echoed
		}
		if removed {
			fmt.Fprintf(os.Stderr, "%s%s%s: stopped; removed the unfinished output\n", lead, prefix, signalNames[sig])
		} else {
			fmt.Fprintf(os.Stderr, "%s%s%s: stopped\n", lead, prefix, signalNames[sig])
		}
		exitBySignal(sig)
	}()
}
