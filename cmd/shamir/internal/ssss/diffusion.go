package ssss

import "encoding/binary"

// ssss's diffusion layer is a keyless permutation of the secret's bytes,
// applied before splitting and undone after combining: the block cipher
// XTEA under the all-zero key, applied to overlapping 8-byte windows of the
// secret taken as a ring, starting at every even offset in turn, 40 times
// around the ring. Since every window overlaps the next, every byte of the
// result depends on every byte of the secret. It adds no secrecy (the key
// is public); it makes shares of similar secrets unrelated-looking.
//
// ssss lays the secret's bytes out for it as 16-bit words from the least
// significant, each word's high byte first; with an odd number of bytes,
// the most significant byte takes the place of the last (absent) high
// byte. layout and unlayout convert between that order and big-endian.
//
// XTEA's operations are additions, shifts and XORs on the data: no
// lookup or branch depends on the secret.

// minDiffusion is the fewest bits ssss applies the layer to: XTEA's block.
const minDiffusion = 64

// rounds is how many times the windows go around the ring.
const rounds = 40

const delta = 0x9e3779b9

func encipher(v0, v1 uint32) (uint32, uint32) {
	var sum uint32
	for range 32 {
		v0 += (v1<<4 ^ v1>>5) + v1 ^ sum
		sum += delta
		v1 += (v0<<4 ^ v0>>5) + v0 ^ sum
	}
	return v0, v1
}

func decipher(v0, v1 uint32) (uint32, uint32) {
	sum := uint32(delta * 32 % (1 << 32))
	for range 32 {
		v1 -= (v0<<4 ^ v0>>5) + v0 ^ sum
		sum -= delta
		v0 -= (v1<<4 ^ v1>>5) + v1 ^ sum
	}
	return v0, v1
}

// window applies fn to the 8 bytes of the ring v from offset i.
func window(v []byte, i int, fn func(v0, v1 uint32) (uint32, uint32)) {
	var w [8]byte
	for k := range w {
		w[k] = v[(i+k)%len(v)]
	}
	v0, v1 := fn(binary.BigEndian.Uint32(w[:4]), binary.BigEndian.Uint32(w[4:]))
	binary.BigEndian.PutUint32(w[:4], v0)
	binary.BigEndian.PutUint32(w[4:], v1)
	for k := range w {
		v[(i+k)%len(v)] = w[k]
	}
}

// position returns where byte k of the big-endian secret of n bytes goes
// in ssss's layout.
func position(k, n int) int {
	j := n - 1 - k // its place counted from the least significant byte
	p := j ^ 1     // the high byte of each 16-bit word first
	if p >= n {
		p = n - 1 // the most significant byte of an odd length
	}
	return p
}

func diffuse(b []byte) {
	v := layout(b)
	for i := 0; i < rounds*len(v); i += 2 {
		window(v, i, encipher)
	}
	unlayout(b, v)
}

func unDiffuse(b []byte) {
	v := layout(b)
	for i := rounds*len(v) - 2; i >= 0; i -= 2 {
		window(v, i, decipher)
	}
	unlayout(b, v)
}

func layout(b []byte) []byte {
	v := make([]byte, len(b))
	for k := range b {
		v[position(k, len(b))] = b[k]
	}
	return v
}

func unlayout(b, v []byte) {
	for k := range b {
		b[k] = v[position(k, len(b))]
	}
	clear(v)
}
