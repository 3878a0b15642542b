// Package shamir implements Shamir's secret sharing over GF(2^8), as a
// drop-in replacement for github.com/hashicorp/vault/shamir, and Secret
// Sharing Made Short (SSMS) for large secrets.
//
// # Which to use
//
// [Split] and [Combine] are Vault's API, byte for byte: the same field
// (GF(2^8) modulo x^8+x^4+x^3+x+1), the same share layout (a y byte for each
// byte of the secret, then the x coordinate), the same refused inputs with
// the same messages. Shares made by either package combine in the other, so
// replacing the import path is the whole migration. Use them for keys and
// other short secrets, and wherever Vault's format is expected. Every share
// is as long as the secret, and nothing in a share lets Combine tell that it
// was altered: [Verify] and [CombineRobust] find and set aside bad shares
// when more than the threshold are given. [AppendCombine] is Combine into a
// buffer the caller provides, for secrets that must live in memory the
// caller manages.
//
// For anything large, and whenever shares may be damaged, use [SplitSSMS]
// and [CombineSSMS] (or [NewSplitWriter] and [NewCombineReader] for
// streams): the secret is encrypted with an AEAD under a random key, the
// ciphertext is dispersed with a Reed–Solomon code, and only the key is
// Shamir-shared, so each share is about len(secret)/threshold bytes.
// Damaged, truncated and duplicated shares are detected and named. Every
// header is signed with a key derived from the split's key, and the split
// ID commits to its public key, so shares made by anyone without the key
// (an outsider's own split under the genuine ID, a header changed) are
// told apart one by one, named [Forged] and set aside: any threshold
// genuine shares recover the secret beside them. Each record (a share's
// part of a chunk) carries a tag under a key derived from the split's key,
// so records an outsider altered, even in place in a genuine share's file,
// are named [Forged] and set aside too. Records altered by holders who
// know the key, tags and all, are found by Reed–Solomon error correction
// and named within a bound, and beyond it the shares are refused, never
// chosen between. Shares of more than one split (an outsider's split under a
// split ID of its own is one), or of two generations of one (a refresh
// makes a new one), are never combined: the error lists them, and
// [CombineSSMSSplit] and [NewCombineReaderSplit] recover the one the
// caller names ([SplitName]). docs/SECURITY.md states, adversary by
// adversary, what holds.
//
// # Results
//
// Every combining function follows one contract: err == nil if and only if
// the secret was recovered (for SSMS, and authenticated). Shares found bad
// on the way are not an error: they come back as a value, a list of
// [BadShare] (the share's position in the argument and a [Reason]), beside
// the secret; a [CombineReader] lists them with [CombineReader.BadShares]
// once it has returned [io.EOF], so that [io.ReadAll] and [io.Copy] succeed
// exactly when the secret was read. An error means there is no secret. The
// errors worth branching on are few: [ErrNotEnoughShares],
// [ErrInconsistentShares], [ErrMixedSplits] and [ErrNotApproved]; an SSMS
// failure is a [*CombineError] that also lists the bad shares and counts
// the good ones. Any other error means the arguments are unusable as given,
// and says how. Misuse that can only be a bug, such as a nil stream or a
// buffer that overlaps a share, panics, as in Go's crypto packages.
//
// # Shares over time
//
// Given threshold shares of a split, four functions make new shares of the
// same secret, each checking the shares first when more than threshold are
// given: [Recreate] makes the share at an x coordinate again, byte for
// byte, to replace a lost one (or a new one, at an x coordinate no share
// has); [Extend] makes new shares at fresh x coordinates, for new holders;
// [Refresh] re-randomizes every share, so that shares that leaked before
// are useless with the new ones; [Reshare] makes a new split with another
// number of shares and threshold. The first three never compute the
// secret; Reshare must, and clears it. docs/SECURITY.md says what each
// reveals, and to whom.
//
// SSMS splits have the same four, by share index instead of x coordinate:
// [RecreateSSMS], [ExtendSSMS], [RefreshSSMSHeaders] (which rewrites the
// headers only, whatever the size of the shares, as the split's
// next generation; [RefreshSSMS] checks every chunk first) and
// [ReshareSSMS], which draws a new key; the forms ending in To stream.
// Recreating authenticates every chunk as [CombineSSMS] does, so it
// computes the key and, a chunk at a time in scratch memory it clears, the
// secret; refreshing headers computes the key, to check it against the
// split ID and sign the new headers, and no chunk.
//
// # Security
//
// Plain Shamir sharing is information-theoretically secure: fewer than
// threshold shares reveal nothing about the secret, whatever the attacker's
// computing power, provided the randomness is uniform. The x coordinates are
// public. It gives no integrity: with too few or altered shares, Combine
// returns a wrong secret without error. SSMS is computationally secure (it
// rests on the AEAD) and reveals the secret's length.
//
// All randomness comes from AES-256-CTR keyed from [crypto/rand], with fast
// key erasure (ChaCha20 where the CPU has no AES instructions, and in purego
// builds; see docs/SECURITY.md). There is no way to pass a random source:
// as in Go's own crypto packages since Go 1.26, tests that need determinism
// use [testing/cryptotest.SetGlobalRandom], which this package honours. In
// FIPS 140-3 mode ([crypto/fips140.Enabled]), every random byte comes from
// crypto/rand itself, the module's DRBG, and SSMS seals with AES-256-GCM
// only; under GODEBUG=fips140=only, shares sealed with the other AEADs are
// refused with [ErrNotApproved] (docs/SECURITY.md).
//
// Every computation on secret bytes runs in constant time: the field
// arithmetic uses no table indexed by secret data and no branch on it, both
// in the portable Go code and in the vector kernels (AVX2, GFNI with AVX2
// or AVX-512, NEON), which are chosen at run time from the CPU's features,
// so that an adversary who measures how long it takes learns nothing of
// the secret. Build
// with -tags purego to use the portable code only.
//
// # Speed
//
// Split, Combine and the Reed–Solomon code are one operation: a matrix of
// public field constants applied to rows of bytes, in cache-sized blocks,
// with the rows of one block kept in vector registers while every input row
// is folded in. Long inputs are spread over GOMAXPROCS goroutines. See
// docs/PERFORMANCE.md for measurements against Vault's package.
package shamir
