package main

import (
	"io"
	"slices"

	"filippo.io/age"
	"filippo.io/age/armor"
)

// An age-encrypted share file is opened when it is read and closed after,
// as a plain one is (sharefiles.go): the classifier keeps the file key
// that opened it, and the file is decrypted again, from its start, with
// that key alone when the share is read. Whatever opened it (a key, a
// passphrase typed, a token's plugin) is not asked again.

// An ageLayer is what reads the share in an age file again.
type ageLayer struct {
	key     []byte // the file key
	armored bool   // the file is ASCII-armored
}

// A keyCatcher keeps the file key an identity unwrapped.
type keyCatcher struct{ key []byte }

// wrap returns ids, each wrapped to give its file key to k, in the order
// age would try them: age tries its native identities first, which it
// tells by their types, hidden by the wrapping, so they are put first
// here, the others keeping their order.
func (k *keyCatcher) wrap(ids []age.Identity) []age.Identity {
	ids = slices.Clone(ids)
	slices.SortStableFunc(ids, func(a, b age.Identity) int {
		switch {
		case isNativeAge(a) && !isNativeAge(b):
			return -1
		case !isNativeAge(a) && isNativeAge(b):
			return 1
		}
		return 0
	})
	out := make([]age.Identity, len(ids))
	for i, id := range ids {
		out[i] = &catching{id, k}
	}
	return out
}

// isNativeAge reports whether age tries id first: its own keys and
// passphrases, before SSH keys and plugins.
func isNativeAge(id age.Identity) bool {
	switch id.(type) {
	case *age.X25519Identity, *age.HybridIdentity, *age.ScryptIdentity:
		return true
	}
	return false
}

// A catching identity is an identity whose file key a keyCatcher keeps.
type catching struct {
	id age.Identity
	k  *keyCatcher
}

func (c *catching) Unwrap(stanzas []*age.Stanza) ([]byte, error) {
	key, err := c.id.Unwrap(stanzas)
	if err == nil {
		c.k.key = slices.Clone(key)
	}
	return key, err
}

// An ageReopen reads the share in the age file f again: it decrypts the
// file with the layer's key as it is first read, and forgets the key at
// the end.
type ageReopen struct {
	f     shareFile
	layer *ageLayer
	d     io.Reader
}

func (a *ageReopen) Read(p []byte) (int, error) {
	if a.d == nil {
		if a.layer.key == nil {
			return 0, io.ErrUnexpectedEOF
		}
		var src io.Reader = io.NewSectionReader(a.f, 0, 1<<62)
		if a.layer.armored {
			src = armor.NewReader(src)
		}
		d, err := age.Decrypt(src, age.NewInjectedFileKeyIdentity(a.layer.key))
		if err != nil {
			return 0, err
		}
		a.d = d
	}
	n, err := a.d.Read(p)
	if err == io.EOF {
		clear(a.layer.key)
		a.layer.key = nil
	}
	return n, err
}
