package shamir

import (
	"crypto/cipher"
	"crypto/fips140"
	"errors"
	"fmt"
)

// FIPS 140-3 mode (docs/SECURITY.md says what is approved in each mode).
//
// When crypto/fips140.Enabled() (GODEBUG=fips140=on or only):
//
//   - every random byte comes from crypto/rand, the Go Cryptographic
//     Module's DRBG, read directly: the package's own AES-256-CTR and
//     ChaCha20 generator (csprng.go) is not used;
//   - SplitSSMS and NewSplitWriter seal with AEAD 3, AES-256-GCM through
//     crypto/cipher.NewGCMWithRandomNonce, never ChaCha20-Poly1305.
//
// When crypto/fips140.Enforced() as well (GODEBUG=fips140=only), shares
// sealed with AEADs 1 and 2 are refused with ErrNotApproved: crypto/cipher
// offers AES-GCM with caller-chosen nonces (AEAD 1) only outside that mode,
// and ChaCha20-Poly1305 (AEAD 2) is not approved at all. Every reader
// accepts AEAD 3 in every mode.

// ErrNotApproved is wrapped by the error [CombineSSMS] and
// [NewCombineReader] return when [crypto/fips140.Enforced] reports true
// (GODEBUG=fips140=only) and the split they pick to recover (as in any
// mode: failing with ErrNotEnoughShares or ErrMixedSplits when there is
// none) was sealed with AES-256-GCM with counter nonces or with
// ChaCha20-Poly1305 (SSMS AEADs 1 and 2, docs/FORMAT.md): neither can be
// opened through FIPS 140-approved constructions in that mode. It is
// returned before any chunk is read, and only then. Such shares are not bad;
// a program run without GODEBUG=fips140=only reads them. [SplitSSMS] and
// [NewSplitWriter] never return it: in FIPS 140-3 mode
// ([crypto/fips140.Enabled]) they seal with AES-256-GCM with random nonces
// (AEAD 3), which every reader accepts in every mode.
var ErrNotApproved = errors.New("shamir: not allowed in FIPS 140-only mode")

// fipsMode is crypto/fips140.Enabled(), which is fixed when the program
// starts. It selects crypto/rand over the package's generator, and AEAD 3.
var fipsMode = fips140.Enabled()

// checkApproved returns an error wrapping ErrNotApproved if the SSMS AEAD
// id cannot be used through FIPS 140-approved constructions now: when
// crypto/fips140.Enforced(), only AEAD 3 can. Enforcement can be lifted for
// a call (crypto/fips140.WithoutEnforcement), so it is asked each time.
func checkApproved(aeadID byte) error {
	if aeadID == aesGCMRandom || !fips140.Enforced() {
		return nil
	}
	return fmt.Errorf("%w: SSMS AEAD %d (%s)", ErrNotApproved, aeadID, aeadName(aeadID))
}

// aeadName names an SSMS AEAD in errors.
func aeadName(id byte) string {
	switch id {
	case aesGCM:
		return "AES-256-GCM with counter nonces"
	case chaCha20Poly1305:
		return "ChaCha20-Poly1305"
	case aesGCMRandom:
		return "AES-256-GCM with random nonces"
	}
	return "unknown"
}

// A randomNonceGCM is AEAD 3, cipher.NewGCMWithRandomNonce, behind the
// interface the chunks use for the other AEADs: the nonce it is given is the
// chunk's 12-byte counter nonce (chunkNum.nonce), which it appends to the
// associated data, since the nonce it seals with is random and goes first
// in the sealed chunk. So the associated data of a chunk is the 29 common
// header bytes, then its counter nonce, and reordered, dropped and
// truncated chunks fail to open as with AEADs 1 and 2.
//
// It is not safe for concurrent use: each sealer and combiner has its own.
type randomNonceGCM struct {
	gcm cipher.AEAD // NonceSize 0, Overhead 28
	ad  [adSize + 12]byte
}

func (a *randomNonceGCM) NonceSize() int { return len(chunkNum{}.nonce) }
func (a *randomNonceGCM) Overhead() int  { return a.gcm.Overhead() }

func (a *randomNonceGCM) Seal(dst, nonce, plaintext, ad []byte) []byte {
	return a.gcm.Seal(dst, nil, plaintext, a.assoc(nonce, ad))
}

func (a *randomNonceGCM) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	return a.gcm.Open(dst, nil, ciphertext, a.assoc(nonce, ad))
}

// assoc returns ad followed by nonce, in a's buffer: 30 and 12 bytes, the
// size of the buffer.
func (a *randomNonceGCM) assoc(nonce, ad []byte) []byte {
	return append(append(a.ad[:0], ad...), nonce...)
}

// inOrder reports whether the chunks of a split sealed with aeadID must be
// sealed in order, on one goroutine: AEAD 3 draws each chunk's nonce from
// the module's DRBG, which testing/cryptotest.SetGlobalRandom makes
// deterministic only if it is read in a fixed order.
func inOrder(aeadID byte) bool {
	return aeadID == aesGCMRandom && !randomIsSystem()
}
