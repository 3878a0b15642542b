package outfile

import (
	"os"
	"os/signal"
	"syscall"
)

// StopSignals are the signals after which shamir removes what it had begun
// to write and exits: Ctrl-C, kill, a closed terminal and Ctrl-\.
var StopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// SignalName names a stop signal in messages: "SIGINT".
func SignalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	}
	return sig.String()
}

// CatchSignals makes a stop signal remove the outputs of every set not yet
// committed, and end the program as that signal would have: report is
// called first (with whether anything was removed), to restore the
// terminal and say so. A signal that was ignored when the program started
// stays ignored: a program started with nohup, or in the background by a
// shell without job control, is meant to run on through a hangup or a
// Ctrl-C at the terminal. A commit in progress ends first, so a signal
// never stops a replacement in place halfway.
func CatchSignals(report func(sig os.Signal, removed bool)) {
	var sigs []os.Signal
	for _, s := range StopSignals {
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
		// live stays locked: no file or folder is created from now on.
		live.Lock()
		live.stopping = true
		removed := false
		for s := range live.sets {
			if s.abortLocked() {
				removed = true
			}
		}
		Unlock()
		report(sig, removed)
		exitBySignal(sig)
	}()
}

// WaitIfStopping blocks for good once a stop signal is being handled: the
// handler removes the output and ends the program, and what failed
// meanwhile is of no interest.
func WaitIfStopping() {
	live.Lock()
	stopping := live.stopping
	live.Unlock()
	if stopping {
		select {}
	}
}
