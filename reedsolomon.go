package shamir

import "errors"

// This file holds the Reed–Solomon code SSMS disperses its ciphertext with.
// Like everything else in the package it is a matrix of public field
// constants applied to rows of bytes by the engine: encoding applies the
// parity rows of the generator matrix, decoding the inverse of the rows that
// arrived.

// An rsCode is a systematic maximum distance separable code over GF(2^8): it
// maps threshold data fragments to parts fragments, the first threshold of
// which are the data fragments themselves, and any threshold of the parts
// fragments determine all the others.
//
// Its generator matrix G has the identity in rows 0…threshold−1 and the
// Cauchy matrix G[i][j] = 1/(i ⊕ j) in rows threshold…parts−1 (the row and
// column numbers taken as field elements). The row numbers of the Cauchy part
// and the column numbers are disjoint sets, so i ⊕ j is never 0. Every square
// submatrix of a Cauchy matrix is invertible; a threshold×threshold
// submatrix of G made of k identity rows and threshold−k Cauchy rows has, after
// expanding along the identity rows, the determinant of a square Cauchy
// submatrix, so it is invertible too. That is the MDS property.
type rsCode struct {
	parts, threshold int
	parity           *matrix // rows threshold…parts−1 of G
}

// newRSCode returns the code for 1 <= threshold <= parts <= 256.
func newRSCode(parts, threshold int) *rsCode {
	c := &rsCode{parts: parts, threshold: threshold}
	if parts > threshold {
		rows := make([]int, parts-threshold)
		for r := range rows {
			rows[r] = threshold + r
		}
		c.parity = newMatrix(active, c.rows(rows), len(rows), threshold)
	}
	return c
}

// coef returns G[i][j].
func (c *rsCode) coef(i, j int) byte {
	if i < c.threshold {
		if i == j {
			return 1
		}
		return 0
	}
	return gfInvPublic(byte(i) ^ byte(j))
}

// rows returns the rows idx of G, row-major.
func (c *rsCode) rows(idx []int) []byte {
	t := c.threshold
	m := make([]byte, len(idx)*t)
	for r, i := range idx {
		for j := range t {
			m[r*t+j] = c.coef(i, j)
		}
	}
	return m
}

// encode computes the parity fragments from the data fragments over the
// columns [off, off+n): len(data) must be threshold and len(parity)
// parts−threshold.
func (c *rsCode) encode(data, parity [][]byte, off, n int) {
	if c.parity != nil {
		c.parity.apply(data, parity, off, n, false)
	}
}

// checker returns the matrix that computes the fragments idx (all >= threshold)
// from the data fragments.
func (c *rsCode) checker(idx []int) *matrix {
	return newMatrix(active, c.rows(idx), len(idx), c.threshold)
}

var errSingular = errors.New("shamir: singular matrix")

// decoder returns what rebuilds the data fragments from the fragments have
// (threshold distinct fragment numbers): the data fragments missing from
// have, and the matrix that computes them, in that order, from the fragments
// of have, in have's order. The matrix is nil when nothing is missing.
func (c *rsCode) decoder(have []int) (m *matrix, missing []int, err error) {
	t := c.threshold
	if len(have) != t {
		return nil, nil, errSingular
	}
	present := make([]bool, t)
	for _, i := range have {
		if i < t {
			present[i] = true
		}
	}
	for j := range t {
		if !present[j] {
			missing = append(missing, j)
		}
	}
	if len(missing) == 0 {
		return nil, nil, nil
	}
	// The fragments that arrived are S·data, with S the rows have of G, so
	// data = S⁻¹·fragments; only the rows of S⁻¹ for missing data are needed.
	inv, err := invert(c.rows(have), t)
	if err != nil {
		return nil, nil, err
	}
	coef := make([]byte, 0, len(missing)*t)
	for _, j := range missing {
		coef = append(coef, inv[j*t:(j+1)*t]...)
	}
	return newMatrix(active, coef, len(missing), t), missing, nil
}

// invert returns the inverse of the n×n row-major matrix a, by Gauss–Jordan
// elimination. The entries are public (they only depend on which fragments
// arrived), so the branches on them leak nothing.
func invert(a []byte, n int) ([]byte, error) {
	a = append([]byte(nil), a...)
	inv := make([]byte, n*n)
	for i := range n {
		inv[i*n+i] = 1
	}
	row := func(m []byte, i int) []byte { return m[i*n : (i+1)*n] }
	for col := range n {
		p := col
		for p < n && a[p*n+col] == 0 {
			p++
		}
		if p == n {
			return nil, errSingular
		}
		if p != col {
			for k := range n {
				a[p*n+k], a[col*n+k] = a[col*n+k], a[p*n+k]
				inv[p*n+k], inv[col*n+k] = inv[col*n+k], inv[p*n+k]
			}
		}
		if s := gfInvPublic(a[col*n+col]); s != 1 {
			scale(row(a, col), s)
			scale(row(inv, col), s)
		}
		for r := range n {
			if f := a[r*n+col]; r != col && f != 0 {
				addMul(row(a, r), row(a, col), f)
				addMul(row(inv, r), row(inv, col), f)
			}
		}
	}
	return inv, nil
}

// scale and addMul are row operations on the small matrices of public
// coefficients above, not on data.
func scale(r []byte, s byte) {
	for i := range r {
		r[i] = gfMulPublic(r[i], s)
	}
}

func addMul(dst, src []byte, f byte) {
	for i := range dst {
		dst[i] ^= gfMulPublic(src[i], f)
	}
}
