package main

import (
	"crypto/fips140"
	"errors"
	"fmt"
)

// Under GODEBUG=fips140=only, Go's cryptography refuses what FIPS 140-3 does
// not approve, and every age file needs some of it: its payload is
// ChaCha20-Poly1305 whatever the key, and its own keys (age1…, the
// post-quantum age1pq1… hybrid, ssh-ed25519) are X25519. The refusal is not
// left to the dependencies, which do not all take it well: filippo.io/hpke
// v0.4.0, under age's post-quantum keys, loops for ever on it (see
// refuseAgeInFIPS). So shamir refuses every recipient and identity up front,
// in one line, and notes the age files it meets as refused by the mode,
// rather than as files it cannot read.

// fipsOnly reports whether FIPS 140-only mode is in force.
var fipsOnly = fips140.Enforced

// errAgeFIPS says why age cannot be used in FIPS 140-only mode.
var errAgeFIPS = errors.New("age encryption uses X25519 and ChaCha20-Poly1305, which FIPS 140-only mode (GODEBUG=fips140=only) refuses")

// refuseAgeInFIPS returns, in FIPS 140-only mode, the one-line error that
// refuses the recipient or identity described by what; otherwise nil.
//
// It must be called before the key is handed to age. In this mode,
// age.ParseIdentities of a post-quantum identity (AGE-SECRET-KEY-PQ-1…)
// never returns: age's newHybridIdentity calls
// hpke.MLKEM768X25519().NewPrivateKey (filippo.io/hpke v0.4.0, pq.go, the
// "for {" loop of hybridKEM.NewPrivateKey), which draws X25519 seeds from
// SHAKE256 until crypto/ecdh's X25519().NewPrivateKey accepts one, and
// takes any error for a rejected seed: the mode's "use of X25519 is not
// allowed" comes back every time.
func refuseAgeInFIPS(what string) error {
	if !fipsOnly() {
		return nil
	}
	return fmt.Errorf("%s: %w", what, errAgeFIPS)
}

// shortKey returns the first characters of a key, to name it in a
// message: a post-quantum recipient is nearly 2,000 characters long.
func shortKey(s string) string {
	r := []rune(s)
	if len(r) <= 20 {
		return s
	}
	return string(r[:16]) + "…"
}
