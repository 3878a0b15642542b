package shamir

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// The known-answer vectors in testdata/ssms/vectors.json are shares made by
// splitSSMS with testRNG(seed) as the randomness: ChaCha8 of math/rand/v2,
// keyed with the seed as 8 little-endian bytes followed by 24 zero bytes.
// splitSSMS draws the key (32 bytes), then the split ID (16 bytes), then
// the threshold−1 random coefficients of the key's polynomial (32 bytes
// each, as the engine's product draws them: one block). Regenerate them, after a deliberate
// change of the format, with
//
//	go test -run TestSSMSVectors -update-ssms-vectors
var updateVectors = flag.Bool("update-ssms-vectors", false, "rewrite testdata/ssms/vectors.json")

const vectorsFile = "testdata/ssms/vectors.json"

type ssmsVector struct {
	Name      string   `json:"name"`
	Parts     int      `json:"parts"`
	Threshold int      `json:"threshold"`
	ChunkSize int      `json:"chunk_size"`
	AEAD      byte     `json:"aead"` // 1 AES-256-GCM, 2 ChaCha20-Poly1305
	Seed      uint64   `json:"seed"`
	Secret    string   `json:"secret"` // hex
	Shares    []string `json:"shares"` // hex

	size int // the length of the secret to draw, when Secret is empty
}

var vectorCases = []ssmsVector{
	{Name: "empty secret, 2 of 2, AES-256-GCM", Parts: 2, Threshold: 2, ChunkSize: defaultChunkSize, AEAD: aesGCM, Seed: 1},
	{Name: "one byte, 2 of 3, ChaCha20-Poly1305", Parts: 3, Threshold: 2, ChunkSize: defaultChunkSize, AEAD: chaCha20Poly1305, Seed: 2, Secret: "2a"},
	{Name: "200 bytes in 64-byte chunks, 3 of 5, AES-256-GCM", Parts: 5, Threshold: 3, ChunkSize: 64, AEAD: aesGCM, Seed: 3, size: 200},
	{Name: "200 bytes in 64-byte chunks, 3 of 5, ChaCha20-Poly1305", Parts: 5, Threshold: 3, ChunkSize: 64, AEAD: chaCha20Poly1305, Seed: 4, size: 200},
	{Name: "128 bytes in 64-byte chunks (last chunk full), 7 of 10, AES-256-GCM", Parts: 10, Threshold: 7, ChunkSize: 64, AEAD: aesGCM, Seed: 5, size: 128},
	{Name: "1000 bytes, 4 of 4, ChaCha20-Poly1305", Parts: 4, Threshold: 4, ChunkSize: defaultChunkSize, AEAD: chaCha20Poly1305, Seed: 6, size: 1000},
}

func vectorSecret(v ssmsVector) []byte {
	if v.Secret != "" {
		b, _ := hex.DecodeString(v.Secret)
		return b
	}
	return testSecret(v.size, v.Seed)
}

func TestSSMSVectors(t *testing.T) {
	skipIfEnforced(t, "the vectors are sealed with AEADs 1 and 2")
	if *updateVectors {
		var vs []ssmsVector
		for _, v := range vectorCases {
			secret := vectorSecret(v)
			v.Secret = hex.EncodeToString(secret)
			for _, s := range mustSplitSSMS(t, secret, v.Parts, v.Threshold, v.ChunkSize, v.AEAD, v.Seed) {
				v.Shares = append(v.Shares, hex.EncodeToString(s))
			}
			vs = append(vs, v)
		}
		out, err := json.MarshalIndent(vs, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(vectorsFile), 0o755)
		if err := os.WriteFile(vectorsFile, append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(vectorsFile)
	if err != nil {
		t.Fatal(err)
	}
	var vs []ssmsVector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(vectorCases) {
		t.Fatalf("%d vectors, want %d", len(vs), len(vectorCases))
	}
	for _, v := range vs {
		secret, _ := hex.DecodeString(v.Secret)
		shares := make([][]byte, len(v.Shares))
		for i, s := range v.Shares {
			shares[i], _ = hex.DecodeString(s)
		}
		// Reading: the shares must keep recovering the secret, from the
		// last threshold of them (parity fragments first) and from all.
		checkCombine(t, shares[len(shares)-v.Threshold:], secret, secret, nil)
		checkCombine(t, shares, secret, secret, nil)
		// Writing: the same randomness must keep making the same bytes,
		// by both forms.
		for i, s := range mustSplitSSMS(t, secret, v.Parts, v.Threshold, v.ChunkSize, v.AEAD, v.Seed) {
			if !bytes.Equal(s, shares[i]) {
				t.Fatalf("%s: share %d differs from the vector", v.Name, i)
			}
		}
	}
}
