package interop

import (
	"encoding/hex"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	vault "github.com/hashicorp/vault/shamir"
)

var writeVectors = flag.Bool("write-vectors", false, "rewrite ../testdata/vault/vectors.json with shares made by Vault's package")

// vaultVectorsPath holds shares made by github.com/hashicorp/vault/shamir
// v1.21.4, which the root package's TestVaultVectors combines. Vault's Split
// takes its randomness from crypto/rand and math/rand, so the file is made
// once, with
//
//	cd interop && go test -run TestWriteVaultVectors -write-vectors
//
// and kept; without the flag this test only checks that Vault still combines
// what the file holds.
var vaultVectorsPath = filepath.Join("..", "testdata", "vault", "vectors.json")

type vector struct {
	Secret    string   `json:"secret"`
	Parts     int      `json:"parts"`
	Threshold int      `json:"threshold"`
	Shares    []string `json:"shares"`
}

func TestWriteVaultVectors(t *testing.T) {
	if *writeVectors {
		rng := rand.New(rand.NewPCG(2026, 11))
		var vs []vector
		for _, c := range []struct{ size, parts, threshold int }{
			{1, 2, 2}, {16, 5, 3}, {32, 5, 3}, {33, 3, 2}, {64, 10, 10}, {100, 7, 4}, {255, 255, 2}, {7, 255, 255}, {1024, 6, 3},
		} {
			secret := randomSecret(rng, c.size)
			shares, err := vault.Split(secret, c.parts, c.threshold)
			if err != nil {
				t.Fatal(err)
			}
			v := vector{Secret: hex.EncodeToString(secret), Parts: c.parts, Threshold: c.threshold}
			for _, s := range shares {
				v.Shares = append(v.Shares, hex.EncodeToString(s))
			}
			vs = append(vs, v)
		}
		b, _ := json.MarshalIndent(vs, "", "  ")
		os.MkdirAll(filepath.Dir(vaultVectorsPath), 0o755)
		if err := os.WriteFile(vaultVectorsPath, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(vaultVectorsPath)
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		var shares [][]byte
		for _, s := range v.Shares[:v.Threshold] {
			sh, _ := hex.DecodeString(s)
			shares = append(shares, sh)
		}
		got, err := vault.Combine(shares)
		if err != nil || hex.EncodeToString(got) != v.Secret {
			t.Fatalf("vector %d: Vault does not combine its own stored shares: %v", i, err)
		}
	}
}
