package shamir_test

import (
	"bytes"
	"errors"
	"fmt"
	"log"

	"github.com/gf256/shamir"
)

func ExampleRecreateSSMS() {
	shares, err := shamir.SplitSSMS([]byte("correct horse battery staple"), 5, 3)
	if err != nil {
		log.Fatal(err)
	}
	// Share 2 is lost. Its index is in every share's file name, and the
	// header of each share holds its own.
	again, bad, err := shamir.RecreateSSMS([][]byte{shares[0], shares[1], shares[4]}, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(bytes.Equal(again[0], shares[2]), len(bad))

	// Two more shares, at indexes 5 and 6: they combine with the others.
	added, _, err := shamir.ExtendSSMS(shares[:3], 2, []int{3, 4})
	if err != nil {
		log.Fatal(err)
	}
	secret, _, err := shamir.CombineSSMS([][]byte{added[1], shares[3], added[0]})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", secret)
	// Output:
	// true 0
	// correct horse battery staple
}

// Refreshing rewrites the headers only (232 bytes each for a split of 3),
// whatever the size of the shares: each refreshed share is its new header,
// of the same length as the old one, followed by its old records.
func ExampleRefreshSSMSHeaders() {
	shares, err := shamir.SplitSSMS(bytes.Repeat([]byte("secret "), 100000), 3, 2)
	if err != nil {
		log.Fatal(err)
	}
	kept := bytes.Clone(shares[1]) // a copy someone failed to destroy
	headers := make([][]byte, len(shares))
	for i, s := range shares {
		info, err := shamir.InspectSSMS(s)
		if err != nil {
			log.Fatal(err)
		}
		headers[i] = s[:info.HeaderSize]
	}
	fresh, err := shamir.RefreshSSMSHeaders(headers)
	if err != nil {
		log.Fatal(err)
	}
	for i, s := range shares {
		copy(s, fresh[i]) // in place: only the header changes
	}
	// Any two refreshed shares combine. They are of the split's next
	// generation, and an old share, kept, is of the one before: the two
	// are refused as two splits, and never combine.
	_, _, err = shamir.CombineSSMS([][]byte{shares[0], shares[2]})
	fmt.Println(err)
	_, _, err = shamir.CombineSSMS([][]byte{shares[0], kept})
	fmt.Println(errors.Is(err, shamir.ErrMixedSplits))
	info, _ := shamir.InspectSSMS(shares[0])
	fmt.Println(info.Generation)
	// Output:
	// <nil>
	// true
	// 1
}
