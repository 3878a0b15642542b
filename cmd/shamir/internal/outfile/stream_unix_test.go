//go:build unix

package outfile

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A named pipe is written into, as the shell writes into it, with or
// without force, and stays a pipe.
func TestFIFO(t *testing.T) {
	for _, force := range []bool{false, true} {
		dir := t.TempDir()
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip(err)
		}
		got := make(chan string)
		go func() {
			f, err := os.Open(fifo)
			if err != nil {
				got <- err.Error()
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			got <- string(b)
		}()
		s := New(force)
		write(t, s, fifo, "secret")
		if err := s.Commit(); err != nil {
			t.Fatal(err)
		}
		if g := <-got; g != "secret" {
			t.Fatalf("read %q", g)
		}
		fi, err := os.Lstat(fifo)
		if err != nil || fi.Mode()&os.ModeNamedPipe == 0 || len(names(t, dir)) != 1 {
			t.Fatalf("after: %v %v %q", fi.Mode(), err, names(t, dir))
		}
	}
}

// A character device, and a link to one, are written into and stay what
// they are.
func TestCharDevice(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "null")
	os.Symlink("/dev/null", link)
	for _, dest := range []string{"/dev/null", link} {
		if err := CheckDest(dest, false); err != nil {
			t.Fatalf("CheckDest(%s): %v", dest, err)
		}
		s := New(true)
		write(t, s, dest, "secret")
		if err := s.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null: %v %v", fi.Mode(), err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link: %v", err)
	}
	if len(names(t, dir)) != 1 {
		t.Fatalf("left: %q", names(t, dir))
	}
}

func TestSocketRefused(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "sock")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		t.Skip(err)
	}
	if err := CheckDest(sock, true); err == nil {
		t.Fatal("a socket was accepted")
	}
}

func TestStreams(t *testing.T) {
	s := New(false)
	defer s.Abort()
	write(t, s, filepath.Join(t.TempDir(), "f"), "x")
	if s.Streams() {
		t.Fatal("a regular file streams")
	}
	write(t, s, "/dev/null", "x")
	if !s.Streams() {
		t.Fatal("/dev/null does not stream")
	}
}
