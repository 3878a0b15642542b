module github.com/gf256/shamir

go 1.26.0

require (
	golang.org/x/crypto v0.55.0
	golang.org/x/sys v0.47.0
)
