package shamir

import (
	"bytes"
	"testing"
)

func TestSSMSSmoke(t *testing.T) {
	secret := bytes.Repeat([]byte("hello, world "), 20000)
	shares, err := SplitSSMS(secret, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	got, err := CombineSSMS(shares[2:])
	if err != nil || !bytes.Equal(got, secret) {
		t.Fatalf("CombineSSMS: %v", err)
	}
}
