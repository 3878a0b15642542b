package outfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// writeLockInfo is false on Linux: the kernel's list of locks says who
// holds a folder's, so a writer writes no file to say it, and a killed one
// leaves none behind.
const writeLockInfo = false

// kernelHolder says who holds the exclusive flock of the folder key, as
// the kernel's list of locks (/proc/locks) and the holder's command line
// tell: "process PID (shamir COMMAND)", only the command's name, never its
// arguments, which may name a share. It returns "" when it cannot tell
// (another file system's numbering, a /proc that hides other processes).
func kernelHolder(key string) string {
	fi, err := os.Stat(key)
	if err != nil {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	want := fmt.Sprintf("%02x:%02x:%d", unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev)), st.Ino)
	locks, err := os.ReadFile("/proc/locks")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(locks), "\n") {
		// "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF"; a process
		// waiting for a lock has "->" after the number.
		f := strings.Fields(line)
		if len(f) < 6 || f[1] != "FLOCK" || f[3] != "WRITE" || f[5] != want {
			continue
		}
		pid := f[4]
		// The command is the word after the program's name: shamir, or
		// a program that runs it in its own process (as the tests'
		// pauseat does).
		cmd, err := os.ReadFile(filepath.Join("/proc", pid, "cmdline"))
		if err != nil {
			return "process " + pid
		}
		args := strings.Split(string(bytes.TrimRight(cmd, "\x00")), "\x00")
		for i, a := range args[:len(args)-1] {
			if !strings.HasPrefix(filepath.Base(a), "shamir") {
				continue
			}
			name := args[i+1]
			if name == "attest" && i+2 < len(args) {
				name += " " + args[i+2]
			}
			if isWord(name) {
				return fmt.Sprintf("process %s (shamir %s)", pid, name)
			}
			break
		}
		return "process " + pid
	}
	return ""
}

// isWord reports whether s is a command's name: lowercase letters, and a
// space between two words.
func isWord(s string) bool {
	if s == "" || len(s) > 40 || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && r != ' ' {
			return false
		}
	}
	return true
}
