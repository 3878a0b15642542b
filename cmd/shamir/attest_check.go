package main

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/gf256/shamir/cmd/shamir/internal/manifest"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gf256/shamir/cmd/shamir/internal/attest"
)

// maxAnswersFile bounds a file of answers: a line per holder, and some
// text around them.
const maxAnswersFile = 1 << 20

// A givenAnswer is one answer found in the inputs of attest check, and
// where: for messages.
type givenAnswer struct {
	text, where string
}

// readAnswers finds the answers in the files and folders args (stdin if
// none, or "-"): every word that starts as an answer does, so that a mail
// or a chat log can be given as it is.
func readAnswers(args []string) ([]givenAnswer, error) {
	if len(args) == 0 {
		args = []string{"-"}
	}
	var found []givenAnswer
	for _, arg := range args {
		var files []string
		if arg != "-" {
			fi, err := os.Stat(arg)
			if err != nil {
				return nil, argError(arg, err)
			}
			files = []string{arg}
			if fi.IsDir() {
				ents, err := os.ReadDir(arg)
				if err != nil {
					return nil, fileError(err)
				}
				files = nil
				for _, e := range ents {
					if e.Type().IsRegular() {
						files = append(files, filepath.Join(arg, e.Name()))
					}
				}
				sort.Strings(files)
			}
		} else {
			files = []string{"-"}
		}
		for _, f := range files {
			got, err := answersIn(f)
			if err != nil {
				return nil, err
			}
			found = append(found, got...)
		}
	}
	return found, nil
}

// answersIn returns the answers in the file path, or stdin for "-".
func answersIn(path string) ([]givenAnswer, error) {
	var r io.Reader = os.Stdin
	what := "stdin"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, fileError(err)
		}
		defer f.Close()
		r, what = f, quote(path)
	}
	data, err := io.ReadAll(io.LimitReader(r, maxAnswersFile+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", what, unwrapPath(err))
	}
	if len(data) > maxAnswersFile {
		return nil, fmt.Errorf("%s is over 1 MiB: not a file of answers", what)
	}
	var found []givenAnswer
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(nil, maxAnswersFile)
	for n := 1; sc.Scan(); n++ {
		for _, w := range strings.Fields(sc.Text()) {
			if strings.HasPrefix(w, "shamir-answer") {
				found = append(found, givenAnswer{w, fmt.Sprintf("%s line %d", what, n)})
			}
		}
	}
	return found, sc.Err()
}

func attestCheck(args []string) error {
	fs := newFlagSet("attest check")
	var path, cv string
	var quiet bool
	stringFlag(fs, &path, "manifest")
	stringFlag(fs, &cv, "c", "challenge")
	boolFlag(fs, &quiet, "q", "quiet")
	args, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	m, id, holders, err := attestManifestFile(path)
	if err != nil {
		return err
	}
	c, err := readChallenge(cv)
	if err != nil {
		return err
	}
	if c.SplitID != id {
		return fmt.Errorf("the challenge is for the split %x, and %s is the manifest of the split %s", c.SplitID, quote(path), m.SplitID)
	}
	given, err := readAnswers(args)
	if err != nil {
		return err
	}
	if len(given) == 0 {
		return errors.New("no answer among the inputs (lines with " + attest.AnswerPrefix + "…)")
	}
	texts := make([]string, len(given))
	for i, g := range given {
		texts[i] = g.text
	}
	rep := attest.Check(c, holders, m.Threshold, texts)
	printReport(rep, m, given, quiet)
	if !rep.Enough() {
		return errSilent
	}
	return nil
}

// printReport prints the outcome of a round: one line per holder on
// stdout, each answer refused on stderr, then the count.
func printReport(rep *attest.Report, m *manifest.Manifest, given []givenAnswer, quiet bool) {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for k, res := range rep.Results {
		name := fmt.Sprintf("%s (share %d)", m.Shares[k].Holder, m.Shares[k].Share)
		switch {
		case res.Attested:
			if !quiet {
				fmt.Fprintf(w, "%s: holds their share (%s)\n", name, given[res.Answer].where)
			}
		case !res.Answered():
			fmt.Fprintf(w, "%s: no answer\n", name)
		default:
			fmt.Fprintf(w, "%s: refused\n", name)
		}
		for _, rf := range res.Refused {
			if res.Attested {
				continue // an answer as good is there
			}
			fmt.Fprintf(w, "  %s: %v\n", given[rf.Answer].where, rf.Err)
		}
	}
	for _, rf := range rep.Stray {
		fmt.Fprintf(w, "%s: no holder's answer: %v\n", given[rf.Answer].where, rf.Err)
	}
	fmt.Fprintf(w, "%d of %d holders proved they hold their share; the threshold is %d: %s\n",
		rep.Attested, len(rep.Results), rep.Threshold, pick(rep.Enough(), "enough", "NOT enough to recover the secret"))
}
