//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// setGroup runs cmd in a process group of its own, which killGroup kills
// whole: a plugin that is a script ends with the programs it started.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
