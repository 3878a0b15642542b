package paper

import "fmt"

// An Entry takes a share typed from paper a line at a time, and checks
// each line as it comes: a person told at once which group of the line is
// wrong types that line again, rather than the whole share. The lines may
// break the text anywhere, even inside a group: the share is one text
// however it is laid out.
type Entry struct {
	chars string // the characters taken, normalised; whole groups but the last
	want  int    // the number of groups, once group 1 is in
}

// Line takes the next line. It returns nil when every group the line
// completes checks; otherwise an *Error naming the first that does not,
// and the line is not taken. If that group began on an earlier line, its
// start is dropped too: Next says where the line to type again starts.
func (e *Entry) Line(line string) error {
	begun := len(e.chars) % 5
	start := len(e.chars) - begun // the offset of the group begun, if any
	from := start/5 + 1
	more, err := normalise(line, e.chars == "", from, begun)
	if err != nil {
		if err.(*Error).Group == from && begun > 0 {
			e.chars = e.chars[:start]
		}
		return err
	}
	c := e.chars[start:] + more
	if err := e.tooMany(len(e.chars) + len(more)); err != nil {
		return err
	}
	vals, bad := checkGroups(c, from, e.want)
	if bad != nil {
		if bad.Group == from && begun > 0 {
			e.chars = e.chars[:start]
		}
		return bad
	}
	if e.want == 0 && len(vals) > 0 && from == 1 {
		_, e.want = length(vals[0])
		if err := e.tooMany(len(e.chars) + len(more)); err != nil {
			return err
		}
	}
	e.chars += more
	return nil
}

// tooMany returns an error if n characters are more than the share has.
func (e *Entry) tooMany(n int) error {
	if e.want == 0 || n <= 5*e.want {
		return nil
	}
	k := e.want + 1
	return errorf(k, 0, "the share has %d groups, and this line goes past the last: %s on are extra", e.want, groupPlace(k))
}

// Next returns the group the next line starts in (from 1), and whether
// it starts inside it, after characters an earlier line gave.
func (e *Entry) Next() (group int, inside bool) {
	return len(e.chars)/5 + 1, len(e.chars)%5 != 0
}

// Done reports whether all the groups of the share are in.
func (e *Entry) Done() bool {
	return e.want > 0 && len(e.chars) == 5*e.want
}

// Share returns the share typed, once Done, checked against the hash in
// its last group.
func (e *Entry) Share() ([]byte, error) {
	if !e.Done() {
		if e.want == 0 {
			return nil, &Error{msg: "no share typed after " + Tag}
		}
		k, _ := e.Next()
		return nil, errorf(k, 0, "the share has %d groups, and %d were typed: it ends at %s", e.want, k-1, groupPlace(e.want))
	}
	vals, err := checkGroups(e.chars, 1, 0)
	if err != nil {
		return nil, err // cannot happen: every group was checked as it came
	}
	return decode(vals)
}

// Prompt returns the prompt for the next line: where it starts.
func (e *Entry) Prompt() string {
	k, inside := e.Next()
	if inside {
		return fmt.Sprintf("rest of %s: ", groupPlace(k))
	}
	return fmt.Sprintf("from %s: ", groupPlace(k))
}
