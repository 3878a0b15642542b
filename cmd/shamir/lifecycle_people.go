package main

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gf256/shamir"
	"github.com/gf256/shamir/cmd/shamir/internal/manifest"
	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
	"github.com/gf256/shamir/cmd/shamir/internal/paper"
)

// This file is the lifecycle commands for people: recreate, extend,
// refresh and reshare write the shares they make as split writes them,
// through the same sinks (sink.go): each encrypted with age to its holder
// (-r, -R, or the recipient the manifest records for that share), a paper
// copy of each (-paper), and the manifest updated with what was handed
// out. So the holders of a split stay its holders over its life: a
// refresh with some of them away makes the shares of those away too, from
// the shares of those present, sealed to them; and none is retired unless
// named (-retire).

// peopleFlagsHelp is the help of the flags for people, the same in the
// four commands.
const peopleFlagsHelp = `	-i, -identity FILE   an age identity file that opens shares encrypted
	                     to it, as combine takes it (may be repeated)
	-r, -recipient [NAME:]RECIPIENT
	                     encrypt a new share to RECIPIENT with age, for
	                     the holder NAME, as split -r does (repeat: one
	                     per new share, in order); NAME: passphrase asks
	                     NAME for a passphrase on the terminal. With
	                     -manifest, the recipients it records are used for
	                     the shares of its holders, and -r NAME:… replaces
	                     NAME's
	-R, -recipients FILE the holders, one a line, as split -R takes them
	-paper DIR           write a paper copy of each new share in DIR
`

// peopleFlags registers the flags for people.
func (lc *lifecycle) peopleFlags(fs *flag.FlagSet) {
	valueFlag(fs, &lc.recipients, "r", "recipient")
	valueFlag(fs, &lc.recipientFiles, "R", "recipients")
	stringFlag(fs, &lc.paper, "paper")
}

// readPeople reads the holders of -r and -R, and checks -paper.
func (lc *lifecycle) readPeople() error {
	if lc.paper == "-" {
		return usagef("-paper -: the paper copies are files, and -paper names their folder")
	}
	if len(lc.recipients)+len(lc.recipientFiles) == 0 {
		return nil
	}
	if lc.out == "-" {
		return usagef("-o -: each holder's share is a file of its own, and -o names their folder")
	}
	hs, err := readHolders(lc.recipients, lc.recipientFiles)
	if err != nil {
		return err
	}
	lc.holders = hs
	return nil
}

// forPeople reports whether the new shares go to people: to holders named
// by -r, -R or the manifest's recipients, or on paper.
func (lc *lifecycle) forPeople() bool {
	if len(lc.holders) > 0 || lc.paper != "" || len(lc.retire) > 0 {
		return true
	}
	if lc.prev != nil {
		for _, s := range lc.prev.Shares {
			if s.Recipient != "" {
				return true
			}
		}
	}
	return false
}

// A target is one new share and where it goes: its number (an SSMS
// share's, from 1; a Vault-format share's x coordinate), its holder (nil
// for a share file in the clear) and its file.
type target struct {
	number int
	holder *holder
	path   string // "" for a Vault-format share without a holder
	sink   *shareSink
}

// manifestEntry returns the manifest's entry of the share number, if any.
func (lc *lifecycle) manifestEntry(number int, ssms bool) *manifest.Share {
	if lc.prev == nil {
		return nil
	}
	for i := range lc.prev.Shares {
		s := &lc.prev.Shares[i]
		if ssms && s.Share == number || !ssms && s.X != 0 && s.X == number {
			return s
		}
	}
	return nil
}

// explicitHolder returns the holder of -r or -R named name, if any.
func (lc *lifecycle) explicitHolder(name string) *holder {
	for i := range lc.holders {
		if strings.EqualFold(lc.holders[i].name, name) {
			return &lc.holders[i]
		}
	}
	return nil
}

// holderOf returns the holder of the new share number: the k-th holder of
// -r and -R when they give one per new share (byOrder), or the holder the
// manifest records for that share, with their recipient (replaced by one
// of -r of the same name). opened, when not nil, is the share given: one
// read from a holder's file is sealed again as the file was opened (the
// passphrase typed, or the native age key). A share whose holder is not
// known has none (nil): it is written in the clear, as a share file.
func (lc *lifecycle) holderOf(k, number int, ssms, byOrder bool, opened *ssmsShare, mem *ageMemory) (*holder, error) {
	if byOrder {
		return &lc.holders[k], nil
	}
	e := lc.manifestEntry(number, ssms)
	if e == nil {
		o := openerOfShare(opened, mem)
		if o != nil && strings.HasSuffix(opened.path, ".shamir.age") {
			// Without a manifest: the holder the file is named for,
			// sealed as their file was.
			return &holder{name: strings.TrimSuffix(filepath.Base(opened.path), ".shamir.age"), recipient: o.recipient, rcpt: o.rcpt}, nil
		}
		if opened != nil && opened.sealed {
			return nil, withHints(fmt.Errorf("%s is encrypted to its holder, and who that is (their recipient) is not known", opened.where),
				"give the split's manifest with -manifest, or the holder's recipient with -r NAME:RECIPIENT")
		}
		return nil, nil
	}
	if h := lc.explicitHolder(e.Holder); h != nil {
		return h, nil
	}
	// A holder present is sealed as their file was opened: they may
	// have re-protected it since the manifest was written.
	if o := openerOfShare(opened, mem); o != nil {
		return &holder{name: e.Holder, recipient: o.recipient, rcpt: o.rcpt}, nil
	}
	if e.Recipient == "" {
		return nil, nil
	}
	h := &holder{name: e.Holder, recipient: e.Recipient, from: quote(lc.manifestPath) + " (share " + fmt.Sprint(e.Share) + ")"}
	if e.Recipient == passphraseRecipient {
		if opened != nil && !opened.sealed {
			return nil, withHints(fmt.Errorf("the share of %s, %s, is not in their file, and they keep it under a passphrase: their new share cannot be sealed for them without one", quote(e.Holder), opened.where),
				fmt.Sprintf("bring %s's file, opened with their passphrase; or have them type a new one with -r %s:passphrase", e.Holder, e.Holder))
		}
		if opened != nil {
			return nil, withHints(fmt.Errorf("%s was opened with a key, and the manifest records a passphrase for %s: what to seal their new share to is not known", opened.where, quote(e.Holder)),
				fmt.Sprintf("give it with -r %s:RECIPIENT (or -r %s:passphrase, for a new passphrase typed now)", e.Holder, e.Holder))
		}
		return nil, withHints(fmt.Errorf("%s keeps their share under a passphrase, and is not here to type it: their new share cannot be sealed for them", quote(e.Holder)),
			fmt.Sprintf("bring %s's file, opened with their passphrase; or give them a key with -r %s:RECIPIENT, or have a new passphrase typed for them with -r %s:passphrase", e.Holder, e.Holder, e.Holder))
	}
	if err := h.parse(); err != nil {
		return nil, err
	}
	return h, nil
}

// openerOfShare returns the recipient of the passphrase or native age key
// that opened the sealed share s, if one did.
func openerOfShare(s *ssmsShare, mem *ageMemory) *opener {
	if s == nil || !s.sealed || mem == nil {
		return nil
	}
	return mem.openerOf(s.where)
}

// checkByOrder checks that -r and -R give one holder per new share, when
// they are matched to the new shares in order; it reports whether they
// are.
func (lc *lifecycle) checkByOrder(n int) (bool, error) {
	if len(lc.holders) == 0 {
		return false, nil
	}
	if lc.prev != nil {
		// With a manifest, -r NAME:… replaces the recipient of NAME,
		// one of its holders, or names the holders of new shares in
		// order.
		all := true
		for _, h := range lc.holders {
			if !slices.ContainsFunc(lc.prev.Shares, func(s manifest.Share) bool { return strings.EqualFold(s.Holder, h.name) }) {
				all = false
			}
		}
		if all {
			return false, nil
		}
	}
	if len(lc.holders) != n {
		return false, usagef("%s given for %s: one per new share", count(len(lc.holders), "recipient"), count(n, "new share"))
	}
	return true, nil
}

// askNewPassphrases asks the holders whose new share is sealed under a
// passphrase typed now (-r NAME:passphrase) for it; cmd is the command run.
func askNewPassphrases(ts []*target, cmd string) error {
	var hs []holder
	var at []int
	for k, t := range ts {
		if t.holder != nil && t.holder.recipient == passphraseRecipient && t.holder.rcpt == nil {
			hs = append(hs, *t.holder)
			at = append(at, k)
		}
	}
	if err := askHolderPassphrases(hs, cmd); err != nil {
		return err
	}
	for i, k := range at {
		h := hs[i]
		ts[k].holder = &h
	}
	return nil
}

// pathOf returns the file of the new share number in dir: its holder's
// file, or the share file NAME.I-of-N.shamir.
func pathOf(dir string, h *holder, name string, number, parts int) string {
	if h != nil {
		return filepath.Join(dir, holderFileName(h.name))
	}
	return filepath.Join(dir, shareFileName(name, number, parts))
}

// openTargets opens the sinks of ts in set.
func (lc *lifecycle) openTargets(set *outfile.Set, ts []*target) error {
	keep := sinkKeeps{paper: lc.paper != "", manifest: true}
	for _, t := range ts {
		s, err := newSink(set, t.path, t.holder, keep)
		if err != nil {
			return err
		}
		t.sink = s
	}
	return nil
}

// closeTargets completes the files of ts, then writes their paper copies
// through set. splitID names the split on the pages; name is the NAME of
// the share files, "" for Vault-format shares in enc.
func (lc *lifecycle) closeTargets(set *outfile.Set, ts []*target, splitID []byte, name, enc string, parts, t int) error {
	for _, tg := range ts {
		if err := tg.sink.close(); err != nil {
			return err
		}
	}
	if lc.paper == "" {
		return nil
	}
	if err := set.MkdirAll(lc.paper); err != nil {
		return err
	}
	o := &splitOptions{parts: parts, threshold: t, name: name, encode: enc}
	for _, tg := range ts {
		if !tg.sink.share.whole() {
			return paperTooBig(tg.sink.share.n)
		}
		info := paper.Info{Index: tg.number, Parts: parts, Threshold: t, SplitID: hex.EncodeToString(splitID),
			Format: pick(enc == "", "SSMS", "Vault-format"), Command: recombineCommand(o)}
		base := fmt.Sprintf("share.%d-of-%d", tg.number, parts)
		if enc == "" {
			base = strings.TrimSuffix(shareFileName(name, tg.number, parts), ".shamir")
		}
		if tg.holder != nil {
			base, info.Holder = tg.holder.name, tg.holder.name
		}
		if err := writePaper(set, lc.paper, base, tg.sink.share.head, info); err != nil {
			return err
		}
	}
	return nil
}

// writeTargets writes the new SSMS shares ts in the folder dir, with fill,
// which writes share k to ws[k] and returns the shares it found bad among
// those read, into the run's transaction (lc.tx), committed with the
// manifest: all of them or none.
func (lc *lifecycle) writeTargets(set *shareSet, dir string, ts []*target, name string, parts int,
	fill func(ws []io.Writer) ([]shamir.BadShare, error)) error {
	if err := askNewPassphrases(ts, lc.cmd.name); err != nil {
		return err
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s is a file, and -o names the folder for the share files", quote(dir))
	}
	out := lc.tx.files
	if err := out.MkdirAll(dir); err != nil {
		return err
	}
	if err := lc.openTargets(out, ts); err != nil {
		return err
	}
	ws := make([]io.Writer, len(ts))
	for k, t := range ts {
		ws[k] = io.MultiWriter(t.sink.w, t.sink.share)
	}
	found, err := fill(ws)
	if err != nil {
		return ssmsError(set, err)
	}
	info, err := shamir.InspectSSMS(ts[0].sink.share.head)
	if err != nil {
		return err
	}
	if err := lc.closeTargets(out, ts, info.SplitID[:], name, "", parts, info.Threshold); err != nil {
		return err
	}
	reportFound(set, found)
	lc.targets = ts
	return nil
}

// sayTargets says, once the run's files are committed, what was written
// for people.
func (lc *lifecycle) sayTargets(ts []*target) {
	if lc.rf.quiet {
		return
	}
	var sealed, plain []string
	for _, t := range ts {
		switch {
		case t.path == "":
		case t.holder != nil:
			sealed = append(sealed, t.path)
		default:
			plain = append(plain, t.path)
		}
	}
	if len(sealed) > 0 {
		lc.sayAfter("wrote %s, %s: %s", count(len(sealed), "share file"), pick(len(sealed) == 1, "encrypted to its holder", "each encrypted to its holder"), quotes(sealed))
	}
	if len(plain) > 0 {
		lc.sayAfter("wrote %s: %s", count(len(plain), "share file"), quotes(plain))
	}
	if lc.paper != "" {
		lc.sayAfter("wrote a paper copy of each new share in %s: PNG and SVG QR codes, and an HTML page to print", quote(lc.paper))
	}
}

// targetsManifest returns the manifest's entries of the shares written
// for people: hashes, attestation key, and the holder's file and
// recipient.
func (lc *lifecycle) targetsManifest(ssms bool) []manifest.Share {
	var out []manifest.Share
	for _, t := range lc.targets {
		s := t.sink
		ms := manifest.Share{Share: t.number, PlainSHA256: hex.EncodeToString(s.plain.Sum(nil))}
		if !ssms {
			ms.X = t.number
		}
		if k, err := s.share.key.Key(); err == nil {
			ms.AttestKey = k.Public().String()
		}
		if t.holder != nil {
			ms.Holder, ms.Recipient = t.holder.name, t.holder.recipient
			ms.File = filepath.Base(t.path)
			ms.EncryptedSHA256 = hex.EncodeToString(s.cipher.Sum(nil))
			if s.header != nil {
				ms.HeaderSHA256 = s.header.sum
			}
		} else if e := lc.manifestEntry(t.number, ssms); e != nil {
			ms.Holder = e.Holder
		} else {
			ms.Holder = fmt.Sprintf("share-%d", t.number)
		}
		out = append(out, ms)
	}
	return out
}

// errNoHolderFile is the refusal of a share read from stdin where its
// holder's file is to be rewritten.
var errNoHolderFile = errors.New("a share read from stdin cannot be refreshed in place")

// newSharesForPeople writes the new SSMS shares nums (of parts, named
// name) of recreate, extend or reshare for people, in dir, with fill.
func (lc *lifecycle) newSharesForPeople(set *shareSet, dir, name string, nums []int, parts int,
	fill func(ws []io.Writer) ([]shamir.BadShare, error)) error {
	byOrder, err := lc.checkByOrder(len(nums))
	if err != nil {
		return err
	}
	if lc.cmd.name == "reshare" && lc.prev != nil && !lc.rf.quiet {
		// The new split's share I goes to the holder of share I: say
		// who has none in it, before anything is written.
		var left []string
		for _, e := range lc.prev.Shares {
			if e.Share > parts {
				left = append(left, fmt.Sprintf("%s (share %d)", e.Holder, e.Share))
			}
		}
		if len(left) > 0 {
			sayf(os.Stderr, "reshare: %d shares: no share of the new split for %s", parts, strings.Join(left, ", "))
		}
	}
	ts := make([]*target, len(nums))
	given := sharesGiven(set)
	for k, num := range nums {
		// reshare's share I goes to the holder of share I (as the
		// manifest carries them over), sealed as their file was
		// opened if they brought it.
		var opened *ssmsShare
		if lc.cmd.name == "reshare" {
			opened = given[num]
		}
		h, err := lc.holderOf(k, num, true, byOrder, opened, set.mem)
		if err != nil {
			return err
		}
		ts[k] = &target{number: num, holder: h, path: pathOf(dir, h, name, num, parts)}
	}
	if err := lc.checkNewManifest(dir, ts); err != nil {
		return err
	}
	if err := lc.writeTargets(set, dir, ts, name, parts, fill); err != nil {
		return err
	}
	lc.noteManifestDir(dir)
	lc.sayTargets(ts)
	return nil
}

// checkNewManifest refuses, before anything is written, a run that would
// write the manifest of its new shares (noteManifestDir) over one that is
// there: it is the split's manifest, to be given with -manifest.
func (lc *lifecycle) checkNewManifest(dir string, ts []*target) error {
	if lc.prev != nil || lc.force || lc.cmd.name == "recreate" || lc.cmd.name == "extend" {
		return nil
	}
	if !slices.ContainsFunc(ts, func(t *target) bool { return t.holder != nil }) {
		return nil
	}
	p := filepath.Join(dir, manifest.FileName)
	if _, err := os.Lstat(p); err == nil {
		return withHints(fmt.Errorf("%s exists, and the new shares' manifest would replace it", quote(p)),
			"if it is the split's manifest, give it with -manifest, which keeps its holders and their earlier keys; or -f to replace it")
	}
	return nil
}

// noteManifestDir makes, when the new shares have holders and no manifest
// was given, the manifest of the new shares dir/manifest.json, as split
// writes one beside the holders' files: for reshare and refresh, whose
// new shares are the whole split.
func (lc *lifecycle) noteManifestDir(dir string) {
	if lc.prev != nil || lc.cmd.name == "recreate" || lc.cmd.name == "extend" {
		return
	}
	for _, t := range lc.targets {
		if t.holder != nil {
			lc.newManifest = filepath.Join(dir, manifest.FileName)
			return
		}
	}
}

// refreshForPeople reports whether refresh writes for people: a share was
// read from a holder's file or from paper, holders, paper or a holder to
// retire were asked for, or the manifest lists holders whose shares are
// not among those given (made again, from those given, for them).
func (lc *lifecycle) refreshForPeople(set *shareSet) bool {
	if len(lc.holders) > 0 || lc.paper != "" || len(lc.retire) > 0 {
		return true
	}
	for _, s := range set.ssms {
		if s.sealed || s.data != nil {
			return true
		}
	}
	if lc.prev != nil && lc.prev.ShareFormat == "ssms" {
		given := sharesGiven(set)
		for _, e := range lc.prev.Shares {
			if given[e.Share] == nil {
				return true
			}
		}
	}
	return false
}

// refreshPeople refreshes the SSMS shares of set for their holders: each
// share given is refreshed (a holder's age file sealed again to them, in
// place; a share file in the clear in place, in the clear; a share from
// paper into its holder's file), and, with a manifest, every holder it
// lists whose share is not given gets a share of the new generation too,
// made from those given (as recreate makes a share) and sealed to the
// recipient the manifest records. No holder is retired but those -retire
// names. What the split becomes is said before anything is written.
func refreshPeople(lc *lifecycle, set *shareSet) error {
	given := sharesGiven(set)
	for _, s := range set.ssms {
		if s.f == nil && s.data == nil {
			return withHints(errNoHolderFile, "give the share file itself")
		}
	}
	retired, err := lc.checkRetire()
	if err != nil {
		return err
	}
	// The shares to write: those given, then those of the absent holders.
	var present []*ssmsShare
	for _, s := range set.ssms {
		if !s.hasHdr || !retired[s.info.Index+1] {
			present = append(present, s)
		}
	}
	var absent []manifest.Share
	if lc.prev != nil {
		for _, e := range lc.prev.Shares {
			if given[e.Share] == nil && !retired[e.Share] {
				absent = append(absent, e)
			}
		}
	}
	t := 0
	for _, s := range set.ssms {
		if s.hasHdr {
			t = s.info.Threshold
			break
		}
	}
	n := len(present) + len(absent)
	if err := lc.sayPlan(present, absent, retired, n, t); err != nil {
		return err
	}
	// Every share given is read whole and checked, as refresh always
	// does; none is written if any is bad.
	headers, err := shamir.RefreshSSMS(set.readers())
	var ce *shamir.CombineError
	if errors.As(err, &ce) && len(ce.Bad) > 0 && ce.Splits == nil && ce.Sets == nil && ce.Several == nil {
		reportBad(os.Stderr, badSSMS(set, ce.Bad))
		return withHints(fmt.Errorf("%s among the inputs; nothing was written", count(len(ce.Bad), "bad share file", "bad share files")),
			"replace "+pick(len(ce.Bad) == 1, "it", "them")+" with what shamir recreate makes from the good ones, and run refresh again")
	}
	if err != nil {
		return ssmsError(set, err)
	}
	header := map[*ssmsShare][]byte{}
	for k, s := range set.ssms {
		header[s] = headers[k]
	}
	ts, dir, err := lc.refreshTargets(set, present, absent, n)
	if err != nil {
		return err
	}
	if err := lc.checkNewManifest(dir, ts); err != nil {
		return err
	}
	if err := askNewPassphrases(ts, lc.cmd.name); err != nil {
		return err
	}
	// Every file goes into the run's transaction, committed once with
	// the manifest: the holders' files replaced in place (each old one
	// untouched until the commit point), the absent holders' new files,
	// the paper copies.
	out := lc.tx.files
	if lc.out == "" {
		out.ReplaceInPlace()
	} else {
		if fi, err := os.Stat(lc.out); err == nil && !fi.IsDir() {
			return fmt.Errorf("%s is a file, and -o names the folder for the share files", quote(lc.out))
		}
		if err := out.MkdirAll(lc.out); err != nil {
			return err
		}
	}
	if err := lc.openTargets(out, ts); err != nil {
		return err
	}
	for k, s := range present {
		if err := copyRefreshed(ts[k].sink, s, header[s], set.mem); err != nil {
			return err
		}
	}
	if len(absent) > 0 {
		rs := make([]io.Reader, 0, len(set.ssms))
		for _, s := range set.ssms {
			r, done, err := s.reopen(set.mem)
			if err != nil {
				return err
			}
			defer done()
			h := header[s]
			if _, err := io.CopyN(io.Discard, r, int64(len(h))); err != nil {
				return fmt.Errorf("reading %s again: %v", s.where, unwrapPath(err))
			}
			rs = append(rs, io.MultiReader(bytes.NewReader(h), r))
		}
		ws := make([]io.Writer, len(absent))
		idx := make([]int, len(absent))
		for k := range absent {
			sk := ts[len(present)+k].sink
			ws[k] = io.MultiWriter(sk.w, sk.share)
			idx[k] = absent[k].Share - 1
		}
		if _, err := shamir.RecreateSSMSTo(ws, rs, idx...); err != nil {
			return ssmsError(set, err)
		}
	}
	info, err := shamir.InspectSSMS(headers[0])
	if err != nil {
		return err
	}
	if err := lc.closeTargets(out, ts, info.SplitID[:], lc.shareName(set), "", n, t); err != nil {
		return err
	}
	lc.targets = ts
	lc.noteManifestDir(dir)
	if !lc.rf.quiet {
		var names []string
		for _, t := range ts {
			names = append(names, t.path)
		}
		lc.sayAfter("refreshed %s: %s", count(len(ts), "share file"), quotes(names))
		if lc.paper != "" {
			lc.sayAfter("wrote a paper copy of each new share in %s: PNG and SVG QR codes, and an HTML page to print", quote(lc.paper))
		}
		lc.sayAfter("destroy every other copy of the old shares: together they still recover the secret, and they do not combine with the new ones")
	}
	return nil
}

// checkRetire checks the holders -retire names against the manifest, and
// returns their share numbers.
func (lc *lifecycle) checkRetire() (map[int]bool, error) {
	retired := map[int]bool{}
	if len(lc.retire) == 0 {
		return retired, nil
	}
	if lc.prev == nil {
		return nil, usagef("-retire names holders of the manifest: give it with -manifest")
	}
	for _, name := range lc.retire {
		i := slices.IndexFunc(lc.prev.Shares, func(s manifest.Share) bool { return strings.EqualFold(s.Holder, name) })
		if i < 0 {
			return nil, usagef("-retire %s: no holder of that name in %s", quote(name), quote(lc.manifestPath))
		}
		retired[lc.prev.Shares[i].Share] = true
	}
	return retired, nil
}

// sayPlan says, before anything is written, what the split becomes: who
// is present, whose share is made for them in their absence, who is
// retired, and how many shares recover the secret of how many. A split
// that would have fewer shares than its threshold is refused.
func (lc *lifecycle) sayPlan(present []*ssmsShare, absent []manifest.Share, retired map[int]bool, n, t int) error {
	if t > 0 && n < t {
		return withHints(fmt.Errorf("the split would have %s, and any %d are needed to recover the secret: it would be lost", count(n, "share"), t),
			"retire fewer holders")
	}
	if lc.rf.quiet || lc.prev == nil {
		return nil
	}
	name := func(num int) string {
		if e := lc.manifestEntry(num, true); e != nil {
			return e.Holder
		}
		return fmt.Sprintf("share-%d", num)
	}
	var here, away, gone []string
	for _, s := range present {
		if s.hasHdr {
			here = append(here, name(s.info.Index+1))
		}
	}
	for _, e := range absent {
		away = append(away, awayHolder(e, lc))
	}
	for _, e := range lc.prev.Shares {
		if retired[e.Share] {
			gone = append(gone, e.Holder)
		}
	}
	sayf(os.Stderr, "refresh: %s present (%s)", count(len(here), "holder"), strings.Join(here, ", "))
	if len(away) > 0 {
		sayf(os.Stderr, "refresh: %s absent (%s): their new shares are made from those present and sealed to them, to hand over later",
			count(len(away), "holder"), strings.Join(away, ", "))
	}
	if len(gone) > 0 {
		sayf(os.Stderr, "refresh: retired, as -retire asks: %s", strings.Join(gone, ", "))
	}
	sayf(os.Stderr, "refresh: the split %s %d shares, any %d of which recover the secret", pick(n == len(lc.prev.Shares), "stays", "becomes"), n, t)
	return nil
}

// refreshTargets returns where each refreshed share goes: the shares
// present, then those of the absent holders, and the folder of the new
// files.
func (lc *lifecycle) refreshTargets(set *shareSet, present []*ssmsShare, absent []manifest.Share, n int) ([]*target, string, error) {
	dir := lc.out
	if dir == "" {
		dir = "."
		for _, s := range present {
			if s.path != "" {
				dir = filepath.Dir(s.path)
				break
			}
		}
		if dir == "." && lc.manifestPath != "" {
			dir = filepath.Dir(lc.manifestPath)
		}
	}
	// Refresh keeps each share with its holder: -r and -R name holders
	// of the manifest, or of the files given (HOLDER.shamir.age), never
	// shares by their order.
	used := map[string]bool{}
	name := lc.shareName(set)
	var ts []*target
	for k, s := range present {
		num := s.info.Index + 1
		var h *holder
		fileHolder := ""
		if s.path != "" && strings.HasSuffix(filepath.Base(s.path), ".shamir.age") && lc.manifestEntry(num, true) == nil {
			fileHolder = strings.TrimSuffix(filepath.Base(s.path), ".shamir.age")
		}
		if e := lc.manifestEntry(num, true); e != nil {
			used[strings.ToLower(e.Holder)] = true
		}
		if fh := lc.explicitHolder(fileHolder); fileHolder != "" && fh != nil {
			h = fh
			used[strings.ToLower(fh.name)] = true
		} else if s.sealed || s.data != nil || lc.explicitHolderOf(num) {
			var err error
			if h, err = lc.holderOf(k, num, true, false, s, set.mem); err != nil {
				return nil, "", err
			}
		}
		path := ""
		switch {
		case s.path != "" && (h == nil || s.sealed && filepath.Base(s.path) == holderFileName(h.name)):
			path = filepath.Join(dir, filepath.Base(s.path))
			if lc.out == "" {
				path = s.path
			}
		case h != nil:
			path = filepath.Join(dir, holderFileName(h.name))
		case name != "":
			path = filepath.Join(dir, shareFileName(name, num, n))
		default:
			return nil, "", withHints(fmt.Errorf("%s has no file to refresh in place, and its holder is not known", s.where),
				"give the split's manifest with -manifest, or the holder with -r NAME:RECIPIENT")
		}
		if s.sealed && h == nil {
			return nil, "", withHints(fmt.Errorf("%s is encrypted to its holder, and who that is (their recipient) is not known", s.where),
				"give the split's manifest with -manifest, or the holder's recipient with -r NAME:RECIPIENT")
		}
		ts = append(ts, &target{number: num, holder: h, path: path})
	}
	for k, e := range absent {
		used[strings.ToLower(e.Holder)] = true
		h, err := lc.holderOf(len(present)+k, e.Share, true, false, nil, set.mem)
		if err != nil {
			return nil, "", err
		}
		if h == nil && name == "" {
			return nil, "", fmt.Errorf("the share of %s, absent, has no recipient in the manifest and no name for a share file", quote(e.Holder))
		}
		ts = append(ts, &target{number: e.Share, holder: h, path: pathOf(dir, h, name, e.Share, n)})
	}
	for _, h := range lc.holders {
		if !used[strings.ToLower(h.name)] {
			return nil, "", withHints(fmt.Errorf("%s: no share of a holder named %s is among those refreshed", h.from, quote(h.name)),
				"refresh keeps each share with its holder: -r NAME:RECIPIENT gives a new recipient to NAME, whose file is NAME.shamir.age or whom the manifest lists")
		}
	}
	return ts, dir, nil
}

// explicitHolderOf reports whether -r or -R names the holder of share num.
func (lc *lifecycle) explicitHolderOf(num int) bool {
	e := lc.manifestEntry(num, true)
	return e != nil && lc.explicitHolder(e.Holder) != nil
}

// shareName returns the NAME of share files in the clear: -name, the
// manifest's, or that of the share files given; "" when none tells.
func (lc *lifecycle) shareName(set *shareSet) string {
	if lc.name != "" {
		return lc.name
	}
	if lc.prev != nil && lc.prev.Name != "" {
		return lc.prev.Name
	}
	for _, s := range set.ssms {
		if nm, _, _, ok := parseShareName(s.path); ok {
			return nm
		}
	}
	return ""
}

// copyRefreshed writes the refreshed share s to sk: its new header, then
// the rest of the share as it is, read again.
func copyRefreshed(sk *shareSink, s *ssmsShare, header []byte, mem *ageMemory) error {
	r, done, err := s.reopen(mem)
	if err != nil {
		return err
	}
	defer done()
	if _, err := io.CopyN(io.Discard, r, int64(len(header))); err != nil {
		return fmt.Errorf("reading %s again: %v", s.where, unwrapPath(err))
	}
	w := io.MultiWriter(sk.w, sk.share)
	if _, err := w.Write(header); err != nil {
		return err
	}
	if _, err := io.CopyBuffer(w, r, make([]byte, copyBufSize)); err != nil {
		var we *writeError
		if errors.As(err, &we) {
			return we
		}
		return fmt.Errorf("reading %s again: %v", s.where, unwrapPath(err))
	}
	return nil
}

// refreshAbsentVault adds to the refreshed Vault-format shares those of
// the holders the manifest lists whose shares were not given, made from
// the refreshed ones at their x coordinates (as recreate makes a share),
// less those -retire names; it says what the split becomes first.
func (lc *lifecycle) refreshAbsentVault(shares [][]byte) ([][]byte, error) {
	if lc.prev == nil {
		if len(lc.retire) > 0 {
			return nil, usagef("-retire names holders of the manifest: give it with -manifest")
		}
		return shares, nil
	}
	have := map[int]bool{}
	for _, s := range shares {
		have[int(shareX(s))] = true
	}
	retired := map[int]bool{}
	for _, name := range lc.retire {
		i := slices.IndexFunc(lc.prev.Shares, func(s manifest.Share) bool { return strings.EqualFold(s.Holder, name) })
		if i < 0 {
			return nil, usagef("-retire %s: no holder of that name in %s", quote(name), quote(lc.manifestPath))
		}
		retired[lc.prev.Shares[i].X] = true
	}
	var xs []byte
	var away, gone, here []string
	for _, e := range lc.prev.Shares {
		switch {
		case retired[e.X]:
			gone = append(gone, e.Holder)
		case have[e.X]:
			here = append(here, e.Holder)
		case e.X != 0:
			away = append(away, awayHolder(e, lc))
			xs = append(xs, byte(e.X))
		}
	}
	kept := shares[:0:0]
	for _, s := range shares {
		if !retired[int(shareX(s))] {
			kept = append(kept, s)
		}
	}
	n := len(kept) + len(xs)
	if n < lc.t.t {
		return nil, withHints(fmt.Errorf("the split would have %s, and any %d are needed to recover the secret: it would be lost", count(n, "share"), lc.t.t),
			"retire fewer holders")
	}
	if !lc.rf.quiet {
		sayf(os.Stderr, "refresh: %s present (%s)", count(len(here), "holder"), strings.Join(here, ", "))
		if len(away) > 0 {
			sayf(os.Stderr, "refresh: %s absent (%s): their new shares are made from those present and sealed to them, to hand over later",
				count(len(away), "holder"), strings.Join(away, ", "))
		}
		if len(gone) > 0 {
			sayf(os.Stderr, "refresh: retired, as -retire asks: %s", strings.Join(gone, ", "))
		}
		sayf(os.Stderr, "refresh: the split %s %d shares, any %d of which recover the secret", pick(n == len(lc.prev.Shares), "stays", "becomes"), n, lc.t.t)
	}
	if len(xs) == 0 {
		return kept, nil
	}
	made, err := shamir.Recreate(shares, lc.t.t, xs...)
	if err != nil {
		return nil, err
	}
	return append(kept, made...), nil
}

// vaultForPeople writes new Vault-format shares in enc for people: each
// share that has a holder (-r, -R, or the manifest's recipient for its x
// coordinate) as the holder's file in the folder -o (default: the
// manifest's folder, or the current one), the others as lines to out, and
// a paper copy of each with -paper.
func (lc *lifecycle) vaultForPeople(shares [][]byte, enc string, out *shareOutput) error {
	byOrder, err := lc.checkByOrder(len(shares))
	if err != nil {
		return err
	}
	ts := make([]*target, len(shares))
	var lines [][]byte
	for k, s := range shares {
		x := int(shareX(s))
		h, err := lc.holderOf(k, x, false, byOrder, nil, nil)
		if err != nil {
			return err
		}
		ts[k] = &target{number: x, holder: h}
		if h == nil {
			lines = append(lines, s)
		}
	}
	if len(lines) > 0 && len(lines) < len(shares) {
		return withHints(errors.New("some new shares have holders and some do not"),
			"give a recipient for each new share with -r or -R")
	}
	// With holders, -o is the folder of their files, as for split.
	dir := lc.out
	if dir == "" || dir == "-" {
		dir = "."
		if lc.manifestPath != "" {
			dir = filepath.Dir(lc.manifestPath)
		}
	}
	for _, t := range ts {
		if t.holder != nil {
			t.path = filepath.Join(dir, holderFileName(t.holder.name))
		}
	}
	if len(lines) == 0 {
		out = nil
	}
	if err := lc.checkNewManifest(dir, ts); err != nil {
		return err
	}
	if err := askNewPassphrases(ts, lc.cmd.name); err != nil {
		return err
	}
	set := lc.tx.files
	if lc.cmd == refreshCmd && lc.out == "" && len(lines) == 0 {
		// The holders' files are refreshed in place, as SSMS share
		// files are: the old ones kept until every new one is written.
		set.ReplaceInPlace()
	}
	if len(lines) == 0 {
		if err := set.MkdirAll(dir); err != nil {
			return err
		}
	}
	if err := lc.openTargets(set, ts); err != nil {
		return err
	}
	for k, s := range shares {
		sk := ts[k].sink
		sk.share.Write(s)
		if _, err := io.WriteString(sk.w, encodeTextShare(s, enc)+"\n"); err != nil {
			return err
		}
	}
	t := cmp.Or(lc.newT, lc.t.t)
	splitID := make([]byte, 16)
	if lc.prev != nil {
		if b, err := hex.DecodeString(lc.prev.SplitID); err == nil && lc.cmd.name != "reshare" {
			splitID = b
		}
	} else {
		rand.Read(splitID)
	}
	if err := lc.closeTargets(set, ts, splitID, "", enc, len(shares), t); err != nil {
		return err
	}
	if len(lines) > 0 && out != nil && out.path != "" {
		f, err := set.Create(out.path)
		if err != nil {
			return err
		}
		if err := writeLines(&destWriter{f, out.path}, lines, enc); err != nil {
			return err
		}
	}
	if len(lines) > 0 && (out == nil || out.path == "") {
		if err := writeLines(os.Stdout, lines, enc); err != nil {
			return fmt.Errorf("writing to stdout: %v", unwrapPath(err))
		}
	}
	lc.targets = ts
	lc.noteManifestDir(dir)
	if !lc.rf.quiet {
		xs := make([]byte, len(shares))
		for k, s := range shares {
			xs[k] = shareX(s)
		}
		if len(lines) == 0 {
			var paths []string
			for _, t := range ts {
				paths = append(paths, t.path)
			}
			lc.sayAfter("wrote %s, at %s, each encrypted to its holder: %s", count(len(shares), enc+" share"), listXs(xs), quotes(paths))
		} else {
			lc.sayAfter("wrote %s, at %s, to %s, one per line", count(len(shares), enc+" share"), listXs(xs), pick(out == nil || out.path == "", "stdout", quote(out.path)))
		}
		if lc.paper != "" {
			lc.sayAfter("wrote a paper copy of each new share in %s: PNG and SVG QR codes, and an HTML page to print", quote(lc.paper))
		}
	}
	return nil
}

// awayHolder names an absent holder and the recipient their new share is
// sealed to, as the manifest (or -r) gives it: the manifest is public and
// not signed, so the people present are shown where each share goes
// before anything is written.
func awayHolder(e manifest.Share, lc *lifecycle) string {
	r := e.Recipient
	if h := lc.explicitHolder(e.Holder); h != nil {
		r = h.recipient
	}
	if r == "" {
		return e.Holder
	}
	return fmt.Sprintf("%s: %s", e.Holder, shortKey(r))
}
