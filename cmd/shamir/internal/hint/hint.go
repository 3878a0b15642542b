// Package hint attaches advice to errors: what the person who reads an
// error can do about it. The command prints each hint after the error, on a
// line of its own. The command and its internal packages share it, so that
// advice given deep down reaches the person whatever wraps it on the way.
package hint

// An Error is an error with advice.
type Error struct {
	Err    error
	Advice []string
}

func (e *Error) Error() string   { return e.Err.Error() }
func (e *Error) Unwrap() error   { return e.Err }
func (e *Error) Hints() []string { return e.Advice }

// With attaches hints to err. A nil err, or no hints, is returned as it is.
func With(err error, hints ...string) error {
	if err == nil || len(hints) == 0 {
		return err
	}
	return &Error{err, hints}
}

// All returns the hints attached anywhere in err's tree (by errors that
// have a Hints method), outermost first.
func All(err error) []string {
	var hints []string
	if h, ok := err.(interface{ Hints() []string }); ok {
		hints = append(hints, h.Hints()...)
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		if e := u.Unwrap(); e != nil {
			hints = append(hints, All(e)...)
		}
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			hints = append(hints, All(e)...)
		}
	}
	return hints
}
