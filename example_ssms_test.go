package shamir_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/gf256/shamir"
)

func ExampleSplitSSMS() {
	secret := bytes.Repeat([]byte("a large secret "), 10000) // 150 000 bytes

	// Five shares, any three of which give the secret back; each is about a
	// third of the secret's size.
	shares, err := shamir.SplitSSMS(secret, 5, 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(shares), len(shares[0]) < len(secret)/3+1024)
	// Output: 5 true
}

func ExampleCombineSSMS() {
	secret := []byte("the backup key")
	shares, err := shamir.SplitSSMS(secret, 5, 3)
	if err != nil {
		log.Fatal(err)
	}

	// One share was damaged in storage. The other four are more than the
	// three needed, so the secret comes back, and the error names the bad
	// share.
	shares[1][len(shares[1])-3] ^= 1
	got, err := shamir.CombineSSMS(shares)
	var bad *shamir.BadSharesError
	if errors.As(err, &bad) {
		fmt.Println("bad shares:", bad.Positions)
	}
	fmt.Printf("%s\n", got)

	// With only two good shares of three needed, nothing comes back.
	_, err = shamir.CombineSSMS(shares[:3])
	fmt.Println(errors.Is(err, shamir.ErrNotEnoughShares))
	// Output:
	// bad shares: [1]
	// the backup key
	// true
}

func ExampleNewSplitWriter() {
	// Share files would be os.Files; buffers keep the example short.
	files := make([]*bytes.Buffer, 3)
	writers := make([]io.Writer, 3)
	for i := range files {
		files[i] = new(bytes.Buffer)
		writers[i] = files[i]
	}
	w, err := shamir.NewSplitWriter(writers, 2) // 3 shares, any 2 recover
	if err != nil {
		log.Fatal(err)
	}
	// The writer holds one chunk per share, whatever is written.
	if _, err := io.Copy(w, bytes.NewReader(make([]byte, 1<<20))); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil { // writes the last chunk
		log.Fatal(err)
	}

	// The streamed shares are ordinary SSMS shares.
	secret, err := shamir.CombineSSMS([][]byte{files[0].Bytes(), files[2].Bytes()})
	fmt.Println(len(secret), err)
	// Output: 1048576 <nil>
}

func ExampleNewCombineReader() {
	shares, err := shamir.SplitSSMS([]byte("streamed back"), 3, 2)
	if err != nil {
		log.Fatal(err)
	}
	r, err := shamir.NewCombineReader([]io.Reader{bytes.NewReader(shares[2]), bytes.NewReader(shares[0])})
	if err != nil {
		log.Fatal(err)
	}
	// The reader returns only authenticated data; an error other than
	// io.EOF at the end means the secret was not read in full (or, as a
	// *BadSharesError, that some shares were bad but the secret was).
	secret, err := io.ReadAll(r)
	fmt.Printf("%s %v\n", secret, err)
	// Output: streamed back <nil>
}

func ExampleInspectSSMS() {
	shares, err := shamir.SplitSSMS([]byte("a secret of any size"), 5, 3)
	if err != nil {
		log.Fatal(err)
	}
	// The header, the first 68 bytes, says which split a share is of.
	info, err := shamir.InspectSSMS(shares[1][:68])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("share %d of %d, any %d recover the secret\n", info.Index+1, info.Parts, info.Threshold)
	fmt.Println(shamir.IsSSMS(shares[1]), shamir.IsSSMS([]byte("Unseal Key 1: ...")))
	// Output:
	// share 2 of 5, any 3 recover the secret
	// true false
}
