//go:build !unix

package main

import "os"

// maxRSS returns 0: the peak memory of a process is not measured here.
func maxRSS(*os.ProcessState) int64 { return 0 }
