module github.com/gf256/shamir/testdata/cli/vaultshamir

go 1.25.3

require github.com/hashicorp/vault v1.21.4
