package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gf256/shamir/cmd/shamir/internal/manifest"

	"github.com/gf256/shamir/cmd/shamir/internal/attest"
)

// This file is shamir attest: proof that the holders of a split still hold
// their shares, without gathering them (internal/attest does the
// cryptography, docs/MANIFEST.md describes it). The manifest records each
// share's public key; the coordinator issues a challenge, each holder
// answers it with one line made from their share, and check says who
// answered, who did not and whose answer is refused.

var cmdAttest = &command{
	name:  "attest",
	short: "prove that holders still hold their shares, without gathering them",
	run:   runAttest,
	help: `usage: shamir attest challenge -manifest FILE
       shamir attest answer -c CHALLENGE [-i FILE] [PATH ... | -]
       shamir attest check -manifest FILE -c CHALLENGE [PATH ... | -]
       shamir attest manifest [-t T] [-split ID/GEN] [-previous FILE] [-o FILE] [PATH ... | -]

Attest lets the holders of a split prove that they still hold their
shares, without anyone gathering or combining them. The manifest that split
-r/-R writes records, for each share, a public key derived from the share
itself (docs/MANIFEST.md). A round has three steps:

  challenge  the coordinator prints a challenge for the manifest's split:
             one line, fresh each time (a random nonce and the time), to
             send to every holder
  answer     each holder prints their answer, one line to send back by chat
             or mail, made from their share (decrypted with -i, as combine
             does) and the challenge, given with -c as the line itself or a
             file holding it. It holds a signature and nothing from which
             the share could be learnt
  check      the coordinator checks the answers (lines in the files PATH,
             or on stdin; other text around them is ignored) against the
             manifest: who proved they hold their share, who did not
             answer, whose answer is refused and why (an answer to an older
             challenge, a share from before a refresh, another split's
             share, another holder's, an answer altered), and whether those
             who proved it are at least the threshold

An answer proves that whoever made it had the share when the challenge was
issued; it does not prove that nobody else has a copy.

attest manifest makes a manifest from a full set of shares, for shares that
have none (Vault unseal keys, right after vault operator init) or after a
refresh: the split ID, each share's SHA-256 and public key. It first checks
the shares against each other, as verify does, and writes nothing if any
is bad. Vault-format
shares need -t (or the JSON of vault operator init). With -previous, the
holders' names come from the earlier manifest of the split, by share, and
its keys are kept as the holders' previous ones, so that an answer made
with a share from before the refresh is told as such.

Flags:
	-manifest FILE       challenge, check: the split's manifest
	-c, -challenge CHALLENGE
	                     answer, check: the challenge, or a file holding it
	-i, -identity FILE   answer, manifest: an age identity file (may be
	                     repeated), as for combine
	-t, -threshold T     manifest: the threshold of Vault-format shares
	-split ID[/GEN]      manifest: the split (and generation) to record,
	                     when the inputs hold shares of others
	-previous FILE       manifest: the split's manifest before a refresh
	-o, -out FILE        manifest: the file to write (default
	                     manifest.json; "-" for stdout)
	-f, -force           manifest: overwrite the file
	-q, -quiet           print only problems

Examples:

	shamir attest challenge -manifest shares/manifest.json > challenge.txt
	shamir attest answer -c challenge.txt -i alice.key alice.shamir.age
	shamir attest check -manifest shares/manifest.json -c challenge.txt \
	    answers.txt
	shamir attest manifest -t 3 -o manifest.json unseal-keys.txt

check exits with status 0 when the holders who proved they hold their
shares are at least the threshold, 1 when they are not (or nothing could
be checked), and 2 for a usage error.
`,
}

func runAttest(args []string) error {
	if len(args) == 0 {
		return usagef("give a step: challenge, answer, check or manifest")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		return errHelp
	case "challenge":
		return attestChallenge(args[1:])
	case "answer":
		return attestAnswer(args[1:])
	case "check":
		return attestCheck(args[1:])
	case "manifest":
		return attestManifest(args[1:])
	}
	return usagef("attest %s: the steps are challenge, answer, check and manifest", quote(args[0]))
}

// attestManifestFile reads the manifest a round is for, and the holders
// it lists.
func attestManifestFile(path string) (*manifest.Manifest, [16]byte, []attest.Holder, error) {
	var id [16]byte
	if path == "" {
		return nil, id, nil, usagef("give the split's manifest with -manifest")
	}
	m, err := readManifest(path)
	if err != nil {
		return nil, id, nil, err
	}
	b, err := hex.DecodeString(m.SplitID)
	if err != nil || len(b) != len(id) {
		return nil, id, nil, fmt.Errorf("%s: the split ID %q is not 32 hexadecimal digits", quote(path), m.SplitID)
	}
	copy(id[:], b)
	if m.Threshold < 2 || m.Threshold > len(m.Shares) {
		return nil, id, nil, fmt.Errorf("%s: the threshold %d is not between 2 and the %d shares it lists", quote(path), m.Threshold, len(m.Shares))
	}
	var hs []attest.Holder
	keys := 0
	for _, s := range m.Shares {
		h := attest.Holder{Share: s.Share, Name: s.Holder}
		if m.ShareFormat != "ssms" {
			h.Share = s.X // a Vault-format share knows its x coordinate only
		}
		if s.AttestKey != "" {
			if h.Key, err = attest.ParsePublicKey(s.AttestKey); err != nil {
				return nil, id, nil, fmt.Errorf("%s: share %d: %v", quote(path), s.Share, err)
			}
			keys++
		}
		for _, p := range s.PreviousAttestKey {
			k, err := attest.ParsePublicKey(p)
			if err != nil {
				return nil, id, nil, fmt.Errorf("%s: share %d: %v", quote(path), s.Share, err)
			}
			h.Previous = append(h.Previous, k)
		}
		hs = append(hs, h)
	}
	if keys == 0 {
		return nil, id, nil, withHints(fmt.Errorf("%s records no attestation keys (%s)", quote(path), m.Version),
			"a manifest of shamir-manifest/2 has them: make one from the shares with shamir attest manifest")
	}
	return m, id, hs, nil
}

func attestChallenge(args []string) error {
	fs := newFlagSet("attest challenge")
	var path string
	stringFlag(fs, &path, "manifest")
	args, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("attest challenge takes no arguments: the manifest is -manifest")
	}
	_, id, _, err := attestManifestFile(path)
	if err != nil {
		return err
	}
	fmt.Println(attest.NewChallenge(id, time.Now()))
	return nil
}

// maxChallengeFile bounds a file said to hold a challenge.
const maxChallengeFile = 64 << 10

// readChallenge reads the challenge of -c: the line itself, or a file
// that holds it on a line of its own.
func readChallenge(v string) (*attest.Challenge, error) {
	if v == "" {
		return nil, usagef("give the challenge with -c: the line shamir attest challenge printed, or a file holding it")
	}
	if strings.HasPrefix(strings.TrimSpace(v), "shamir-challenge") {
		c, err := attest.ParseChallenge(v)
		if err != nil {
			return nil, fmt.Errorf("-c: %v", err)
		}
		return c, nil
	}
	f, err := os.Open(v)
	if err != nil {
		return nil, fileError(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxChallengeFile))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", quote(v), unwrapPath(err))
	}
	for _, tok := range strings.Fields(string(data)) {
		if strings.HasPrefix(tok, "shamir-challenge") {
			c, err := attest.ParseChallenge(tok)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", quote(v), err)
			}
			return c, nil
		}
	}
	return nil, fmt.Errorf("%s holds no challenge (a line starting %s)", quote(v), attest.ChallengePrefix)
}

// plainSHA256 is the SHA-256 the manifest records for a share as its
// holder decrypts it.
func plainSHA256(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
