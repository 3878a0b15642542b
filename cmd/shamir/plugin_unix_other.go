//go:build unix && !linux

package main

import "syscall"

// setParentDeath does nothing where the system cannot.
func setParentDeath(a *syscall.SysProcAttr) {}
