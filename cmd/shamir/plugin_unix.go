//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// setGroup runs cmd in a process group of its own, which killGroup kills
// whole: a plugin that is a script ends with the programs it started.
// Where the system can (Linux), the plugin is also killed if shamir dies
// without a word (SIGKILL, which no handler sees).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeath(cmd.SysProcAttr)
}

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
