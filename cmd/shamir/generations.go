package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gf256/shamir"
)

// This file names the split meant among SSMS shares (-split ID[/GEN]) and
// explains shares of several splits, or of several generations of one.
// Each refresh makes a new generation of a split: the same split ID and
// key, the generation one more in every header, and shares that do not
// combine with those of the generation before. A share from before a
// refresh that finds its way back into a folder of refreshed shares is
// named as such, with the advice to destroy it: with threshold-1 others of
// its generation it still recovers the secret.

// findSplit returns the split and generation -split names among the SSMS
// shares: "ID/GEN" as the command prints it, or the ID, or enough of its
// start to tell it from the others'. Without /GEN, the shares must hold
// one generation of that split; with several, it refuses, listing them and
// naming the newest.
func (set *shareSet) findSplit(arg string) (shamir.SplitName, error) {
	prefix, genText, hasGen := strings.Cut(strings.ToLower(arg), "/")
	if len(prefix) < 4 || len(prefix) > 32 || strings.Trim(prefix, "0123456789abcdef") != "" {
		return shamir.SplitName{}, usagef("-split %s: a split ID is 32 hexadecimal digits, or at least the first 4 of them, optionally followed by /GENERATION", quote(arg))
	}
	gen, err := strconv.ParseUint(genText, 10, 32)
	if hasGen && err != nil {
		return shamir.SplitName{}, usagef("-split %s: the generation after the / is a number, 0 for a split never refreshed", quote(arg))
	}
	var found []shamir.SplitID
	for _, s := range set.ssms {
		if s.hasHdr && strings.HasPrefix(s.info.SplitID.String(), prefix) && !slices.Contains(found, s.info.SplitID) {
			found = append(found, s.info.SplitID)
		}
	}
	switch {
	case len(found) == 0:
		return shamir.SplitName{}, withHints(fmt.Errorf("no share of split %s among the inputs", prefix), splitsHint(set))
	case len(found) > 1:
		return shamir.SplitName{}, usagef("-split %s: %d splits among the inputs have IDs that start so: give more of the ID", prefix, len(found))
	}
	id := found[0]
	gens := set.generations(id)
	switch {
	case hasGen && !slices.Contains(gens, uint32(gen)):
		return shamir.SplitName{}, withHints(fmt.Errorf("no share of generation %d of split %s among the inputs", gen, id), splitsHint(set))
	case hasGen:
		return shamir.SplitName{ID: id, Generation: uint32(gen)}, nil
	case len(gens) == 1:
		return shamir.SplitName{ID: id, Generation: gens[0]}, nil
	}
	return shamir.SplitName{}, set.generationsError(id, gens)
}

// generations returns the generations of the split id among the headers
// of the SSMS shares, in increasing order.
func (set *shareSet) generations(id shamir.SplitID) []uint32 {
	var gens []uint32
	for _, s := range set.ssms {
		if s.hasHdr && s.info.SplitID == id && !slices.Contains(gens, s.info.Generation) {
			gens = append(gens, s.info.Generation)
		}
	}
	slices.Sort(gens)
	return gens
}

// generationsError refuses -split naming the split id without a generation
// when the shares hold several, gens by their headers. The library tells
// which of them are genuine and which is the newest: it opens each. (The
// share readers are spent: the run ends here.)
func (set *shareSet) generationsError(id shamir.SplitID, gens []uint32) error {
	_, err := shamir.NewCombineReader(set.readers())
	var ce *shamir.CombineError
	if !errors.As(err, &ce) || !errors.Is(ce, shamir.ErrMixedSplits) {
		var names []string
		for _, g := range gens {
			names = append(names, shamir.SplitName{ID: id, Generation: g}.String())
		}
		return withHints(fmt.Errorf("-split %s: the shares' headers claim %d generations of the split (%s), and which is meant is not said",
			id, len(gens), strings.Join(names, ", ")), "name the generation with -split ID/GEN")
	}
	reportBad(os.Stderr, append(badSSMS(set, ce.Bad), set.olderGenerations(ce.Splits)...))
	var mine []shamir.SplitShares
	for _, sp := range ce.Splits {
		if sp.ID == id {
			mine = append(mine, sp)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "-split %s: the shares are of %d generations of the split (each refresh makes a new one), and which is meant is not said:", id, len(mine))
	for _, sp := range mine {
		b.WriteString("\n" + set.describeSplit(sp, ce.Splits))
	}
	return withHints(errors.New(b.String()), newestHints(ce.Splits)...)
}

// newestOf returns the newest generation of the split id among splits: the
// one the library found newest, having recovered its key and checked it
// against the split ID (checked), or else the highest a header claims,
// which proves nothing.
func newestOf(id shamir.SplitID, splits []shamir.SplitShares) (gen uint32, checked bool) {
	for _, sp := range splits {
		if sp.ID == id && sp.Newest {
			return sp.Generation, true
		}
	}
	for _, sp := range splits {
		if sp.ID == id {
			gen = max(gen, sp.Generation)
		}
	}
	return gen, false
}

// generationCount returns how many generations of the split id splits
// lists.
func generationCount(id shamir.SplitID, splits []shamir.SplitShares) int {
	n := 0
	for _, sp := range splits {
		if sp.ID == id {
			n++
		}
	}
	return n
}

// describeSplit is the line that lists the shares of the split, or
// generation, sp among splits. A generation is called the newest only when
// the library recovered its key and checked it against the split ID (the
// number in a header is signed, so an outsider's change is Forged, but a
// signature does not show that its generation can be recovered); when
// none of the split's could be, the good shares are not counted either.
func (set *shareSet) describeSplit(sp shamir.SplitShares, splits []shamir.SplitShares) string {
	var names []string
	for _, p := range sp.Positions {
		names = append(names, set.ssms[p].where)
	}
	name := sp.ID.String()
	if generationCount(sp.ID, splits) > 1 || sp.Generation > 0 {
		name = shamir.SplitName{ID: sp.ID, Generation: sp.Generation}.String()
	}
	gen, checked := newestOf(sp.ID, splits)
	note := ""
	switch {
	case generationCount(sp.ID, splits) < 2:
	case checked && gen == sp.Generation:
		note = " (the newest)"
	case checked && sp.Generation > gen:
		note = " (its key could not be recovered: not checked)"
	}
	if !checked && generationCount(sp.ID, splits) > 1 {
		return fmt.Sprintf("split %s, threshold %d: %s: %s", name, sp.Threshold, count(len(sp.Positions), "share"), strings.Join(names, ", "))
	}
	return fmt.Sprintf("split %s%s, threshold %d: %d good of %s: %s", name, note, sp.Threshold, sp.Good,
		count(len(sp.Positions), "share"), strings.Join(names, ", "))
}

// olderGenerations names the share files of older generations of a split
// than its newest among splits: shares from before a refresh, to destroy.
// Only on authenticated evidence: the newest generation is one whose key
// was recovered and checked against the split ID; when none was, no share
// is called old.
func (set *shareSet) olderGenerations(splits []shamir.SplitShares) []problem {
	var old []problem
	for _, sp := range splits {
		newest, checked := newestOf(sp.ID, splits)
		if !checked || sp.Generation >= newest {
			continue
		}
		for _, p := range sp.Positions {
			old = append(old, problem{set.ssms[p].where, olderGeneration(sp.Generation, newest, "the newest among the inputs")})
		}
	}
	return old
}

// olderGeneration says why a share of generation gen is bad beside shares
// of the newer generation newest.
func olderGeneration(gen, newest uint32, which string) string {
	return fmt.Sprintf("of generation %d of the split, older than generation %d (%s): a share from before a refresh, which no longer combines with the new ones; destroy it", gen, newest, which)
}

// newestHints are the hints that name, for each split of several
// generations among splits, its newest to recover.
func newestHints(splits []shamir.SplitShares) []string {
	var hints []string
	var seen []shamir.SplitID
	for _, sp := range splits {
		if slices.Contains(seen, sp.ID) || generationCount(sp.ID, splits) < 2 {
			continue
		}
		seen = append(seen, sp.ID)
		gen, checked := newestOf(sp.ID, splits)
		if !checked {
			hints = append(hints, "no generation has enough shares for its key to be recovered: a header's generation is signed, but until one is recovered nothing here says which shares are old; give more shares of the split")
			continue
		}
		hints = append(hints, fmt.Sprintf("to recover generation %d of split %s, the %s, name it with -split %s", gen, sp.ID,
			pick(checked, "newest", "highest"), shamir.SplitName{ID: sp.ID, Generation: gen}))
	}
	return hints
}

// mixedSplits explains why shares of several splits, or generations of a
// split, recover nothing: it names the shares of older generations, lists
// each split with its threshold, its shares and how many of them are good,
// and says how to name the one meant.
func mixedSplits(set *shareSet, splits []shamir.SplitShares) error {
	reportBad(os.Stderr, set.olderGenerations(splits))
	var ids []shamir.SplitID
	for _, sp := range splits {
		if !slices.Contains(ids, sp.ID) {
			ids = append(ids, sp.ID)
		}
	}
	var b strings.Builder
	if _, checked := newestOf(ids[0], splits); len(ids) == 1 && !checked {
		fmt.Fprintf(&b, "the shares' headers claim %d generations of split %s, and none could be checked:", len(splits), ids[0])
	} else if len(ids) == 1 {
		fmt.Fprintf(&b, "the shares are of %d generations of split %s (each refresh makes a new one), and which is meant is not said:", len(splits), ids[0])
	} else {
		fmt.Fprintf(&b, "the shares are of %d splits, and which is meant is not said:", len(ids))
	}
	for _, sp := range splits {
		b.WriteString("\n" + set.describeSplit(sp, splits))
	}
	hints := newestHints(splits)
	if len(ids) > 1 {
		hints = append(hints, "name the split to recover with -split ID (the first digits of its ID will do), or give the shares of one split only")
	}
	return withHints(errors.New(b.String()), hints...)
}

// notProvenOlder takes out of found, the shares a run that failed found
// bad, those of generations older than the one -split names: that
// generation was not recovered, so nothing says it is genuine, nor that
// they are old. They are named as set aside, with no advice to destroy
// them.
func (set *shareSet) notProvenOlder(found []shamir.BadShare) (rest []shamir.BadShare, aside []problem) {
	for _, b := range found {
		if s := set.ssms[b.Position]; set.split != nil && b.Reason == shamir.OtherGeneration && s.hasHdr {
			aside = append(aside, problem{s.where, fmt.Sprintf("of generation %d of the split, by its header, not the %d named with -split, which could not be recovered: not checked, and nothing says it is old",
				s.info.Generation, set.split.Generation)})
			continue
		}
		rest = append(rest, b)
	}
	return rest, aside
}
