module github.com/gf256/shamir/cmd/shamir

go 1.26.0

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

