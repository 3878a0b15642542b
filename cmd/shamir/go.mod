module github.com/gf256/shamir/cmd/shamir

go 1.26.0

// github.com/gf256/shamir is the library of this repository. The go.work at
// the root builds this module with the checkout beside it, so this file names
// no local path for it: go install …@version refuses a go.mod that does.
// Before tagging cmd/shamir/vX.Y.Z, tag the library, then require its tag
// here: GOWORK=off go get github.com/gf256/shamir@vX.Y.Z && GOWORK=off go mod tidy.
require (
	filippo.io/age v1.3.2
	github.com/gf256/shamir v0.0.0-00010101000000-000000000000
	github.com/makiuchi-d/gozxing v0.1.2-0.20250720151325-95e256b768ac
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/crypto v0.55.0
	golang.org/x/sys v0.47.0
	golang.org/x/term v0.45.0
)

require (
	filippo.io/edwards25519 v1.2.0 // indirect
	filippo.io/hpke v0.4.0 // indirect
	golang.org/x/text v0.41.0 // indirect
	golang.org/x/tools v0.49.0 // indirect
	golang.org/x/xerrors v0.0.0-20200804184101-5ec99f83aff1 // indirect
)
