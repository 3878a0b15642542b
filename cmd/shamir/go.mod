module github.com/gf256/shamir/cmd/shamir

go 1.26.0

// github.com/gf256/shamir is the library of this repository. The go.work at
// the root builds this module with the checkout beside it, so this file names
// no local path for it: go install …@version refuses a go.mod that does.
// Before tagging cmd/shamir/vX.Y.Z, tag the library, then require its tag
// here: GOWORK=off go get github.com/gf256/shamir@vX.Y.Z && GOWORK=off go mod tidy.
require (
	github.com/gf256/shamir v0.0.0-00010101000000-000000000000
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/sys v0.47.0
	golang.org/x/term v0.45.0
)

require (
	golang.org/x/crypto v0.55.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)

