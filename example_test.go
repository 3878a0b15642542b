package shamir_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/gf256/shamir"
)

func ExampleSplit() {
	secret := []byte("correct horse battery staple")

	// Five shares, any three of which give the secret back.
	shares, err := shamir.Split(secret, 5, 3)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range shares {
		// The shares are random, but their layout is fixed: the y bytes,
		// then the x coordinate.
		fmt.Println(len(s) == len(secret)+shamir.ShareOverhead, s[len(s)-1] != 0)
	}
	// Output:
	// true true
	// true true
	// true true
	// true true
	// true true
}

func ExampleCombine() {
	shares, err := shamir.Split([]byte("correct horse battery staple"), 5, 3)
	if err != nil {
		log.Fatal(err)
	}
	// Any three shares, in any order.
	secret, err := shamir.Combine([][]byte{shares[4], shares[0], shares[2]})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", secret)
	// Output: correct horse battery staple
}

func ExampleAppendCombine() {
	shares, err := shamir.Split([]byte("correct horse battery staple"), 5, 3)
	if err != nil {
		log.Fatal(err)
	}
	// A buffer the caller manages, reused for every secret of up to 64
	// bytes and cleared when done.
	buf := make([]byte, 0, 64)
	defer clear(buf[:cap(buf)])
	secret, err := shamir.AppendCombine(buf[:0], shares[1:4])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", secret)
	// Output: correct horse battery staple
}

func ExampleVerify() {
	shares, err := shamir.Split([]byte("correct horse battery staple"), 5, 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(shamir.Verify(shares, 3))

	// A share mistyped at one byte. Five shares with threshold 3 have two
	// to spare, enough to tell which one of them is wrong.
	shares[3][7] ^= 0x20
	fmt.Println(shamir.Verify(shares, 3))

	// With one to spare, a bad share is found but cannot be named.
	_, err = shamir.Verify(shares[:4], 3)
	fmt.Println(errors.Is(err, shamir.ErrInconsistentShares))
	// Output:
	// [] <nil>
	// [shares[3]: disagrees with the other shares] <nil>
	// true
}

func ExampleCombineRobust() {
	shares, err := shamir.Split([]byte("correct horse battery staple"), 7, 3)
	if err != nil {
		log.Fatal(err)
	}
	// Two of seven shares damaged: ⌊(7−3)/2⌋ = 2 can be corrected.
	shares[1][0] ^= 1
	copy(shares[5], "from another split, entirely")

	// err is nil: the secret was recovered. The shares set aside on the
	// way are a value beside it, not an error.
	secret, bad, err := shamir.CombineRobust(shares, 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", secret)
	for _, b := range bad {
		fmt.Println("replace share", b.Position)
	}
	// Output:
	// correct horse battery staple
	// replace share 1
	// replace share 5
}

func ExampleCombineError() {
	shares, err := shamir.SplitSSMS([]byte("unseal key"), 5, 3)
	if err != nil {
		log.Fatal(err)
	}
	shares[0] = shares[0][:80]           // truncated
	shares[3] = []byte("Unseal Key 4: ") // not an SSMS share

	_, _, err = shamir.CombineSSMS(shares[:4])
	var ce *shamir.CombineError
	if errors.As(err, &ce) {
		fmt.Printf("%d good shares of %d needed\n", ce.Good, ce.Needed)
		for _, b := range ce.Bad {
			fmt.Printf("share %d is bad: %v\n", b.Position, b.Reason)
		}
	}
	// Output:
	// 2 good shares of 3 needed
	// share 0 is bad: truncated
	// share 3 is bad: not an SSMS share
}

// A share is ShareOverhead bytes longer than the secret.
func Example_shareOverhead() {
	secret := make([]byte, 32)
	shares, err := shamir.Split(secret, 3, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(shares[0]), len(secret)+shamir.ShareOverhead)

	// The x coordinate is the last byte; the rest are the y bytes.
	x, y := shares[0][len(secret)], shares[0][:len(secret)]
	fmt.Println(x != 0, len(y))
	// Output:
	// 33 33
	// true 32
}
