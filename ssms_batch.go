package shamir

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"math/bits"
)

// This file signs SSMS headers a batch at a time (docs/FORMAT.md). A batch
// is the shares one operation makes: a split, an extension, a refresh, a
// share made again. Its indexes are a range [first, first+size), and the
// hashes of its shares' key shares are the leaves of a Merkle tree, one per
// index of the range: every leaf is a function of the key polynomial, so
// whoever knows it (the dealer, the lifecycle functions) can build the
// tree again, and an index of the range that was never handed out costs
// nothing. One Ed25519 signature covers the batch statement: the fields
// every share of the batch has in common, the range and the tree's root.
// Each header carries the path from its leaf to the root, so a reader
// checks a share with a few hashes, and one signature verification per
// distinct statement.

const (
	labelLeaf = "GFSSMS leaf"
	labelNode = "GFSSMS node"

	// stmtSize is the length of a batch statement, 99 bytes: header bytes 0…28,
	// the generation, the batch's first index and size, the key check,
	// the public key and the root.
	stmtSize = adSize + 4 + 2 + keyCheckSize + ed25519.PublicKeySize + nodeSize
)

// depth returns the depth of the Merkle tree of a batch of size indexes,
// 1…255: its leaves are padded to 2^depth, and a header's path has that
// many nodes.
func depth(size int) int { return bits.Len(uint(size - 1)) }

// headerLen returns the length of the header of a share of a batch of
// size indexes.
func headerLen(size int) int { return minHeaderSize + depth(size)*nodeSize }

// headerLenOf returns the length of the header that b, which holds at
// least hdrPrefix bytes, starts: hdrPrefix when b is not the start of a
// format 4 header or its batch size is 0, which parseHeader refuses.
func headerLenOf(b []byte) int {
	if !IsSSMS(b) || b[hdrVersion] != ssmsVersion || b[hdrBatchSize] == 0 {
		return hdrPrefix
	}
	return headerLen(int(b[hdrBatchSize]))
}

// A node is a node of a batch's Merkle tree: SHA-256, truncated to 128
// bits, which keeps second preimages at about 2^128 work (docs/FORMAT.md).
type node [nodeSize]byte

// leafOf returns the leaf of the share of the given index whose key share
// is y: SHA-256("GFSSMS leaf" ‖ index ‖ y)[0:16], in a time that depends
// on no byte's value; its copy of y is cleared. The leaf may be treated
// as public, as most leaves are, in their siblings' paths: y is a uniform
// 256-bit value to anyone with fewer than threshold key shares, and the
// leaf gives nothing towards it short of inverting SHA-256.
func leafOf(index int, y *[keySize]byte) node {
	var b [len(labelLeaf) + 1 + keySize]byte
	n := copy(b[:], labelLeaf)
	b[n] = byte(index)
	copy(b[n+1:], y[:])
	sum := sha256.Sum256(b[:])
	clear(b[:])
	return node(sum[:nodeSize])
}

// nodeOf returns the parent of the nodes l and r:
// SHA-256("GFSSMS node" ‖ l ‖ r)[0:16]. The labels keep leaves and inner
// nodes apart (their inputs differ in length too).
func nodeOf(l, r *node) node {
	var b [len(labelNode) + 2*nodeSize]byte
	n := copy(b[:], labelNode)
	copy(b[n:], l[:])
	copy(b[n+nodeSize:], r[:])
	sum := sha256.Sum256(b[:])
	return node(sum[:nodeSize])
}

// rootOf returns the root that the leaf at place pos of a tree reaches
// through path, the siblings from the leaf up.
func rootOf(leaf node, pos int, path []node) node {
	for i := range path {
		if pos&1 == 0 {
			leaf = nodeOf(&leaf, &path[i])
		} else {
			leaf = nodeOf(&path[i], &leaf)
		}
		pos >>= 1
	}
	return leaf
}

// batchStatement returns the bytes a batch's signature covers: the
// split's common fields ad, the generation, the batch's range, the key
// check, the public key and the root of the batch's tree.
func batchStatement(ad *[adSize]byte, gen uint32, first, size int, check *[keyCheckSize]byte, pub *[ed25519.PublicKeySize]byte, root *node) [stmtSize]byte {
	var s [stmtSize]byte
	n := copy(s[:], ad[:])
	binary.BigEndian.PutUint32(s[n:], gen)
	n += 4
	s[n], s[n+1] = byte(first), byte(size)
	n += 2
	n += copy(s[n:], check[:])
	n += copy(s[n:], pub[:])
	copy(s[n:], root[:])
	return s
}

// batchHeaders returns the headers of the shares at want (indexes of the
// range [first, first+len(ys))) of a batch of the split whose common
// fields are ad, of generation gen, signed with k: ys[p] is the key share
// at index first+p, for every index of the range. It hashes each key share
// once (its leaf), builds the tree, and signs once.
func (k *splitKeys) batchHeaders(ad *[adSize]byte, gen uint32, first int, ys [][]byte, want []int) [][]byte {
	size := len(ys)
	d := depth(size)
	// The tree, level by level from the leaves, padded with zero nodes:
	// 2^(d+1)−1 nodes.
	tree := make([]node, 1<<(d+1)-1)
	for p, y := range ys {
		tree[p] = leafOf(first+p, (*[keySize]byte)(y))
	}
	level, width := tree, 1<<d
	for width > 1 {
		next := level[width:]
		for j := range width / 2 {
			next[j] = nodeOf(&level[2*j], &level[2*j+1])
		}
		level, width = next, width/2
	}
	root := level[0]
	stmt := batchStatement(ad, gen, first, size, &k.check, &k.pub, &root)
	sig := ed25519.Sign(k.priv, stmt[:])
	hl := headerLen(size)
	buf := make([]byte, len(want)*hl)
	hdrs := make([][]byte, len(want))
	for w, i := range want {
		h := buf[w*hl : (w+1)*hl : (w+1)*hl]
		copy(h, ad[:])
		h[hdrIndex] = byte(i)
		binary.BigEndian.PutUint32(h[hdrGeneration:], gen)
		h[hdrBatchFirst], h[hdrBatchSize] = byte(first), byte(size)
		copy(h[hdrKeyCheck:hdrPublicKey], k.check[:])
		copy(h[hdrPublicKey:hdrSignature], k.pub[:])
		copy(h[hdrSignature:hdrPath], sig)
		off := hdrPath
		level, width, pos := tree, 1<<d, i-first
		for width > 1 {
			off += copy(h[off:], level[pos^1][:])
			level, width, pos = level[width:], width/2, pos/2
		}
		copy(h[off:off+keySize], ys[i-first])
		binary.BigEndian.PutUint32(h[off+keySize:], crc32.Checksum(h[:off+keySize], castagnoli))
		hdrs[w] = h
	}
	return hdrs
}

// keySharesOf returns the key shares at every index of [first, first+size)
// of the polynomial of degree < len(xs) through the points (xs, ys), with
// distinct xs: those of the points copied, the others interpolated by the
// engine. The caller clears buf, which holds them.
func keySharesOf(first, size int, xs []byte, ys [][]byte) (out [][]byte, buf []byte) {
	buf = make([]byte, size*keySize)
	out = make([][]byte, size)
	var targets []byte
	var outs [][]byte
	for p := range out {
		out[p] = buf[p*keySize : (p+1)*keySize]
		x := keyX(first + p)
		j := -1
		for k, px := range xs {
			if px == x {
				j = k
			}
		}
		if j >= 0 {
			copy(out[p], ys[j])
		} else {
			targets, outs = append(targets, x), append(outs, out[p])
		}
	}
	if len(targets) > 0 {
		interpolate(outs, targets, xs, ys)
	}
	return out, buf
}
