package hint

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestWith(t *testing.T) {
	if With(nil, "a") != nil {
		t.Error("With(nil) is not nil")
	}
	base := errors.New("base")
	if With(base) != base {
		t.Error("With without hints wrapped the error")
	}
	err := With(base, "a", "b")
	if err.Error() != "base" || !errors.Is(err, base) {
		t.Errorf("With: %v, not base", err)
	}
}

func TestAll(t *testing.T) {
	inner := With(errors.New("inner"), "inner hint")
	wrapped := fmt.Errorf("outer: %w", inner)
	joined := errors.Join(With(errors.New("x"), "x hint"), wrapped)
	err := With(joined, "outer hint")
	want := []string{"outer hint", "x hint", "inner hint"}
	if got := All(err); !slices.Equal(got, want) {
		t.Errorf("All = %q, want %q", got, want)
	}
	if got := All(errors.New("plain")); got != nil {
		t.Errorf("All of a plain error = %q", got)
	}
}
