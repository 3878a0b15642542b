package main

import (
	"os"

	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
)

var cmdResume = &command{
	name:  "resume",
	short: "finish, or undo, a change to shares that was stopped halfway",
	run:   runResume,
	help: `usage: shamir resume FOLDER...

Resume carries out the one way on from a change to a split that was stopped
halfway (killed, or a power cut): one of refresh, recreate, extend or
reshare into a folder of shares, reprotect, attest manifest, or any of them
with -manifest. Every such change is one transaction over every folder it
touches (the share files, those that symbolic links point into, and the
manifest): its new files are written whole beside the old ones, its plan
is written as a journal (.shamir-ID.journal) in each folder, and the
"commit" line that ends the first folder's journal is its commit point.

Stopped before the commit point, the old files are untouched: resume undoes
the change, removing its new files and its journals. Stopped after it, the
new files are whole: resume finishes it, renaming them over the old ones,
then removes the journals. It does so in every folder the change touched,
whichever of them FOLDER is, after locking each; a change still under way
(its folder locked by the shamir that makes it) is left alone, and said to
be.

Verify, combine and every command that changes shares find such a folder,
say which files are new and which old, and name this command; they read
nothing there, and change nothing, until it has run. The steps by hand are
in their message too.

Flags:
	-q, -quiet           say nothing on success

Examples:

	shamir resume backup

The exit status is 0 on success, 1 on failure and 2 for a usage error.
`,
}

func runResume(args []string) error {
	fs := newFlagSet("resume")
	var quiet bool
	boolFlag(fs, &quiet, "q", "quiet")
	args, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return usagef("name the folder the change was stopped in, as in shamir resume backup")
	}
	var errs []error
	for _, dir := range args {
		if fi, err := os.Stat(dir); err != nil {
			errs = append(errs, argError(dir, err))
			continue
		} else if !fi.IsDir() {
			errs = append(errs, usagef("%s is not a folder: name the folder of the shares", quote(dir)))
			continue
		}
		did, err := outfile.Resume(dir, "resume")
		for _, line := range did {
			if !quiet {
				sayf(os.Stderr, "%s", line)
			}
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(did) == 0 && !quiet {
			if err := outfile.Interrupted(dir); err != nil {
				// A list of renames of an earlier version: by hand.
				errs = append(errs, err)
				continue
			}
			sayf(os.Stderr, "%s: no change was stopped halfway there", quote(dir))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return joinErrors(errs)
}
