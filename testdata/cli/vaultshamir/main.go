// Command vaultshamir runs HashiCorp Vault's own shamir package, so that the
// shamir command's text shares can be checked against the real thing. It is a
// module of its own so that Vault never enters the root module's go.mod.
//
//	go run . split -n 5 -t 3 -hex SECRETHEX   # Vault's Split, base64 lines
//	go run . combine < shares.txt             # Vault's Combine, secret as hex
//
// combine reads one share per line in base64 (as vault operator init prints
// unseal keys, with or without the "Unseal Key N: " label) or hex.
//
// The files in testdata/cli whose names start with vault- were made with
// "go run . split".
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/vault/shamir"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: vaultshamir split -n N -t T -hex SECRET | vaultshamir combine < shares")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "split":
		err = split(os.Args[2:])
	case "combine":
		err = combine()
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "vaultshamir:", err)
		os.Exit(1)
	}
}

func split(args []string) error {
	fs := flag.NewFlagSet("split", flag.ExitOnError)
	n := fs.Int("n", 5, "parts")
	t := fs.Int("t", 3, "threshold")
	h := fs.String("hex", "", "secret in hex")
	fs.Parse(args)
	secret, err := hex.DecodeString(*h)
	if err != nil {
		return err
	}
	parts, err := shamir.Split(secret, *n, *t)
	if err != nil {
		return err
	}
	for i, p := range parts {
		fmt.Printf("Unseal Key %d: %s\n", i+1, base64.StdEncoding.EncodeToString(p))
	}
	return nil
}

func combine() error {
	var parts [][]byte
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.LastIndex(line, ": "); i >= 0 {
			line = line[i+2:]
		}
		if line == "" {
			continue
		}
		p, err := hex.DecodeString(line)
		if err != nil {
			if p, err = base64.StdEncoding.DecodeString(line); err != nil {
				return fmt.Errorf("line %q is neither hex nor base64", line)
			}
		}
		parts = append(parts, p)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	secret, err := shamir.Combine(parts)
	if err != nil {
		return err
	}
	fmt.Println(hex.EncodeToString(secret))
	return nil
}
