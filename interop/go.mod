module github.com/gf256/shamir/interop

go 1.26.0

require (
	github.com/gf256/shamir v0.0.0
	github.com/hashicorp/vault v1.21.4
	github.com/klauspost/reedsolomon v1.14.2
)

require (
	github.com/klauspost/cpuid/v2 v2.3.0 // indirect
	golang.org/x/crypto v0.55.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
)

replace github.com/gf256/shamir => ../
