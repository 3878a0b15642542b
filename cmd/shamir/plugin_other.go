//go:build !unix

package main

import "os/exec"

// setGroup does nothing where there are no process groups.
func setGroup(cmd *exec.Cmd) {}

// killGroup kills cmd's process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
