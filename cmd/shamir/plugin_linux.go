package main

import "syscall"

// setParentDeath has the child killed when shamir dies.
func setParentDeath(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
