package shamir

// CombineSSMS recovers a secret from shares made by [SplitSSMS] or
// [NewSplitWriter]. The shares must all be of one split and one generation
// (a refresh makes a new one): given shares of more than one, it recovers
// nothing and returns a [*CombineError] whose Err is [ErrMixedSplits] and
// whose Splits describes each; [CombineSSMSSplit] recovers the one it is
// told.
//
// Any threshold good shares of the split suffice; the others may be
// damaged, truncated, duplicated or missing. Against an outsider (anyone
// without the split's key, from which the key signing every header
// derives): shares they made or whose headers they changed, however many
// and wherever given, even a whole valid split of their own under the
// genuine ID, public key and key check, fail their signatures, checked
// share by share without the key, and are set aside and named [Forged]
// before anything is decoded: any threshold genuine shares recover the
// secret beside them, whatever their order. Signatures are checked only
// when the shares disagree or one is named, so shares that all agree pay
// none. Each record (a share's part of a chunk) carries a tag under a key
// derived from the split's key: records an outsider altered, in place in
// a genuine share's file or in a copy, checksums recomputed, fail their
// tags, checked once the key is known wherever a chunk's records
// disagree, and their shares are named [Forged] and set aside before the
// chunk is decoded: any threshold genuine shares recover the secret beside
// any number of shares an outsider added, replaced or altered. Up to
// threshold−1 holders together cannot make a tag either, even for their
// own shares: they are outsiders here. Against holders who know the key
// (they can sign headers and tag records): with m shares of distinct
// indexes given whose signatures hold, of which e_k have key shares off
// the key's polynomial, and of the others d are damaged (their checksums
// or their records' tags fail, or they are truncated or unreadable) and e
// have altered records whose tags hold, the secret is recovered, and
// those named, whenever 2·e_k <= m − threshold and
// 2·e + d <= m − e_k − threshold (docs/FORMAT.md states the bound with
// copies), in time polynomial in the number of shares. Beyond that bound
// the shares are refused with [ErrInconsistentShares], naming in
// [CombineError.Sets] the shares that agree and those that do not, never
// chosen between: the result does not depend on the order of the shares.
//
// If err is nil, secret is the whole secret, every byte of it
// authenticated, and bad lists the shares found bad on the way, by
// increasing position (nil if none): the secret is good, and those shares
// should be replaced. The shares not needed to recover the secret are
// checked against it, so a share not in bad is good.
//
// Otherwise secret and bad are nil, and err is a [*CombineError] that says
// why ([ErrNotEnoughShares], [ErrInconsistentShares], [ErrMixedSplits]),
// lists the shares found bad, and counts the good ones. A wrong secret is
// never returned: every chunk is authenticated.
//
// CombineSSMS decodes the chunks of a long secret on up to GOMAXPROCS
// goroutines; the result does not depend on how many.
func CombineSSMS(shares [][]byte) (secret []byte, bad []BadShare, err error) {
	return combineSSMS(shares, nil)
}

// CombineSSMSSplit is [CombineSSMS] for the split and generation name
// alone: the shares of other splits among shares are reported with the
// reason [OtherSplit], and those of other generations of the same split
// with [OtherGeneration].
func CombineSSMSSplit(shares [][]byte, name SplitName) (secret []byte, bad []BadShare, err error) {
	return combineSSMS(shares, &name)
}

func combineSSMS(shares [][]byte, want *SplitName) (secret []byte, bad []BadShare, err error) {
	c, err := openSplit(memIns(shares), want, false)
	if err != nil {
		return nil, nil, err
	}
	defer c.release()
	_, size := c.held()
	secret, err = c.rest(make([]byte, 0, size))
	if err != nil {
		clear(secret[:cap(secret)])
		return nil, nil, err
	}
	return secret, c.badShares(), nil
}
