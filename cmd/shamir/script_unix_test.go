//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
	"github.com/rogpeppe/go-internal/testscript"
)

var signalsByName = map[string]os.Signal{
	"INT":  syscall.SIGINT,
	"TERM": syscall.SIGTERM,
	"HUP":  syscall.SIGHUP,
	"QUIT": syscall.SIGQUIT,
}

func init() {
	helperCmds["limitfsize"] = limitFsizeMain
	helperCmds["powercut"] = powercutMain
	helperCmds["pauseat"] = pauseatMain
}

// pauseatMain is the program pauseat: "pauseat N FILE shamir ARGS..." runs
// shamir ARGS, paused before the Nth step of its commit (as powercut
// counts them) until FILE, which it creates there, is removed: a run that
// holds its locks, and has read everything, for another to meet.
func pauseatMain() {
	n, err := strconv.Atoi(os.Args[1])
	if len(os.Args) < 4 || os.Args[3] != "shamir" || err != nil {
		fmt.Fprintln(os.Stderr, "usage: pauseat N FILE shamir [ARGS...]")
		os.Exit(2)
	}
	file := os.Args[2]
	k := 0
	outfile.TestHookStep = func(op, path string) {
		if k++; k != n {
			return
		}
		os.WriteFile(file, nil, 0o600)
		for {
			if _, err := os.Stat(file); err != nil {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	os.Args = os.Args[3:]
	main()
}

// powercutMain is the program powercut: "powercut N shamir ARGS..." runs
// shamir ARGS, killed (SIGKILL, which nothing can catch) before the Nth
// step of a commit with a journal that changes the disk (a sync, a write,
// a rename, a removal: outfile.TestHookStep), as a power cut would stop
// it. It exits 0 if the run ends before its Nth step.
func powercutMain() {
	n, err := strconv.Atoi(os.Args[1])
	if len(os.Args) < 3 || os.Args[2] != "shamir" || err != nil {
		fmt.Fprintln(os.Stderr, "usage: powercut N shamir [ARGS...]")
		os.Exit(2)
	}
	k := 0
	outfile.TestHookStep = func(op, path string) {
		if k++; k == n {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	}
	os.Args = os.Args[2:]
	main()
}

func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo NAME")
	}
	ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o600))
}

// limitFsizeMain is the program limitfsize: it limits the size of the files
// that it and its children write (RLIMIT_FSIZE), then runs its arguments.
// Writes past the limit then fail with EFBIG: Go programs ignore SIGXFSZ.
func limitFsizeMain() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: limitfsize BYTES PROG [ARGS...]")
		os.Exit(2)
	}
	n, err := strconv.ParseUint(os.Args[1], 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "limitfsize:", err)
		os.Exit(2)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
		fmt.Fprintln(os.Stderr, "limitfsize:", err)
		os.Exit(2)
	}
	path, err := exec.LookPath(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "limitfsize:", err)
		os.Exit(2)
	}
	err = syscall.Exec(path, os.Args[2:], os.Environ())
	fmt.Fprintln(os.Stderr, "limitfsize:", err)
	os.Exit(2)
}
