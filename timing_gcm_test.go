//go:build dudect

package shamir

import (
	"crypto/cipher"
	"math/rand/v2"
	"testing"
)

// TestDudectGCM measures SSMS AEAD 1 (newAESGCM: the assembly where the CPU
// has it) as timing_test.go measures the kernels: the fixed class seals and
// opens under the same key, nonce and plaintext every time, the random
// class under fresh ones, with the same lengths and associated data. A
// secret-dependent time in the key schedule, the powers of H, counter mode
// or GHASH would separate the classes. Sizes: 32 bytes (the short path),
// 1 KiB (the one-pass loop and a tail) and 1 KiB opened with a tag that
// fails (the same time as one that passes is not required: which one fails
// is public; the classes both fail, with different keys).
func TestDudectGCM(t *testing.T) {
	skipIfEnforced(t, "crypto/cipher.NewGCM refuses caller-chosen nonces")
	rng := rand.New(rand.NewPCG(9, 10))
	ad := make([]byte, 29)
	type slot struct {
		aead         cipher.AEAD
		nonce, p, ct []byte
	}
	var sink []byte
	gcmTarget := func(name string, size int, open, tamper bool) target {
		slots := make([]slot, dudectSlots)
		dst := make([]byte, 0, size+16)
		return target{
			name:  name,
			slots: dudectSlots,
			prepare: func(s, class int) {
				key := make([]byte, 32)
				fill(rng, key, class)
				sl := &slots[s]
				var err error
				if sl.aead, err = newAESGCM(key); err != nil {
					panic(err)
				}
				sl.nonce = make([]byte, 12)
				fill(rng, sl.nonce, class)
				sl.p = make([]byte, size)
				fill(rng, sl.p, class)
				sl.ct = sl.aead.Seal(nil, sl.nonce, sl.p, ad)
				if tamper {
					sl.ct[len(sl.ct)-1] ^= 1
				}
			},
			run: func(s int) {
				sl := &slots[s]
				if open {
					sink, _ = sl.aead.Open(dst, sl.nonce, sl.ct, ad)
				} else {
					sink = sl.aead.Seal(dst, sl.nonce, sl.p, ad)
				}
			},
		}
	}
	for _, tg := range []target{
		gcmTarget("gcm/seal_32B", 32, false, false),
		gcmTarget("gcm/open_32B", 32, true, false),
		gcmTarget("gcm/seal_1KiB", 1024, false, false),
		gcmTarget("gcm/open_1KiB", 1024, true, false),
		gcmTarget("gcm/open_1KiB_bad_tag", 1024, true, true),
	} {
		t.Run(tg.name, func(t *testing.T) {
			if tv := dudect(t, tg); tv > *dudectT {
				t.Errorf("|t| = %.2f exceeds %.1f: the time depends on the secret input", tv, *dudectT)
			}
		})
	}
	_ = sink
}
