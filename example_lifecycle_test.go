package shamir_test

import (
	"bytes"
	"errors"
	"fmt"
	"log"

	"github.com/gf256/shamir"
)

func ExampleRecreate() {
	shares, err := shamir.Split([]byte("correct horse battery staple"), 5, 3)
	if err != nil {
		log.Fatal(err)
	}
	// Share 2 is lost; its x coordinate, its last byte, was written down.
	lost := shares[2]
	x := lost[len(lost)-1]

	// Any three others make it again, byte for byte, without the secret.
	again, err := shamir.Recreate([][]byte{shares[0], shares[1], shares[4]}, 3, x)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.Equal(again[0], lost))

	// Given more than three, Recreate checks them first, and refuses to
	// derive anything from a share that disagrees.
	shares[3][5] ^= 1
	_, err = shamir.Recreate([][]byte{shares[0], shares[1], shares[3], shares[4]}, 3, x)
	fmt.Println(errors.Is(err, shamir.ErrInconsistentShares))
	// Output:
	// true
	// true
}

// New shares at x coordinates of one's choosing are Recreate at x
// coordinates no share has.
func ExampleRecreate_chosenX() {
	shares, err := shamir.Split([]byte("correct horse battery staple"), 3, 2)
	if err != nil {
		log.Fatal(err)
	}
	// An x coordinate none of the three shares has.
	x := byte(1)
	for x == shares[0][28] || x == shares[1][28] || x == shares[2][28] {
		x++
	}
	added, err := shamir.Recreate(shares, 2, x)
	if err != nil {
		log.Fatal(err)
	}
	secret, err := shamir.Combine([][]byte{added[0], shares[1]})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", secret)
	// Output: correct horse battery staple
}

func ExampleExtend() {
	secret := []byte("correct horse battery staple")
	shares, err := shamir.Split(secret, 5, 3)
	if err != nil {
		log.Fatal(err)
	}
	// Two new holders. Three shares are at hand; the other two are in use
	// elsewhere, so their x coordinates are passed along.
	inUse := []byte{shares[3][len(secret)], shares[4][len(secret)]}
	added, err := shamir.Extend(shares[:3], 3, 2, inUse)
	if err != nil {
		log.Fatal(err)
	}

	// The seven shares are one split: any three recover the secret.
	got, err := shamir.Combine([][]byte{added[0], shares[4], added[1]})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", got)
	// Output: correct horse battery staple
}

func ExampleRefresh() {
	secret := []byte("correct horse battery staple")
	old, err := shamir.Split(secret, 5, 3)
	if err != nil {
		log.Fatal(err)
	}
	// Share 4 may have leaked. Every share is refreshed, and the old ones
	// are destroyed.
	fresh, err := shamir.Refresh(old, 3)
	if err != nil {
		log.Fatal(err)
	}

	got, err := shamir.Combine(fresh[1:4])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", got)

	// The leaked share is of no use with new ones.
	got, err = shamir.Combine([][]byte{old[4], fresh[0], fresh[1]})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.Equal(got, secret))
	// Output:
	// correct horse battery staple
	// false
}

func ExampleReshare() {
	shares, err := shamir.Split([]byte("correct horse battery staple"), 5, 3)
	if err != nil {
		log.Fatal(err)
	}
	// From 3 of 5 to 4 of 7. This computes the secret, and clears it.
	shares, err = shamir.Reshare(shares, 3, 7, 4)
	if err != nil {
		log.Fatal(err)
	}
	secret, err := shamir.Combine(shares[3:])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(shares))
	fmt.Printf("%s\n", secret)
	// Output:
	// 7
	// correct horse battery staple
}
