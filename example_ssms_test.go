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
	// three needed: the secret comes back, err is nil, and the bad share
	// is reported beside it, to be replaced.
	shares[1][len(shares[1])-3] ^= 1
	got, bad, err := shamir.CombineSSMS(shares)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", got)
	for _, b := range bad {
		fmt.Println("replace", b)
	}

	// With only two good shares of three needed, nothing comes back; the
	// error says why and lists the bad shares.
	_, _, err = shamir.CombineSSMS(shares[:3])
	fmt.Println(errors.Is(err, shamir.ErrNotEnoughShares))
	fmt.Println(err)
	// Output:
	// the backup key
	// replace shares[1]: damaged
	// true
	// shamir: not enough good shares to recover the secret: 2 good shares, 3 needed; bad: shares[1]: damaged
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
	secret, bad, err := shamir.CombineSSMS([][]byte{files[0].Bytes(), files[2].Bytes()})
	fmt.Println(len(secret), bad, err)
	// Output: 1048576 [] <nil>
}

func ExampleNewCombineReader() {
	shares, err := shamir.SplitSSMS([]byte("streamed back"), 3, 2)
	if err != nil {
		log.Fatal(err)
	}
	// Share 1 was cut short, in a file system that filled up.
	shares[1] = shares[1][:len(shares[1])-5]
	r, err := shamir.NewCombineReader([]io.Reader{
		bytes.NewReader(shares[2]), bytes.NewReader(shares[1]), bytes.NewReader(shares[0]),
	})
	if err != nil {
		log.Fatal(err)
	}
	// The reader returns only authenticated data, and io.EOF once the
	// whole secret is read, so io.ReadAll (or io.Copy) returns a nil error
	// exactly when the secret was recovered. The shares found bad on the
	// way are then listed by BadShares.
	secret, err := io.ReadAll(r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", secret)
	fmt.Println(r.BadShares())
	// Output:
	// streamed back
	// [shares[1]: truncated]
}

func ExampleInspectSSMS() {
	shares, err := shamir.SplitSSMS([]byte("a secret of any size"), 5, 3)
	if err != nil {
		log.Fatal(err)
	}
	// The header (at most the first 312 bytes) says which split a share
	// is of.
	info, err := shamir.InspectSSMS(shares[1])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("share index %d, any %d recover the secret\n", info.Index, info.Threshold)
	fmt.Printf("a header of %d bytes\n", info.HeaderSize)
	fmt.Println(shamir.IsSSMS(shares[1]), shamir.IsSSMS([]byte("Unseal Key 1: ...")))
	// Output:
	// share index 1, any 3 recover the secret
	// a header of 232 bytes
	// true false
}
