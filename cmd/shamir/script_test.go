package main

// The command's behaviour is pinned as transcripts in testdata/script, run
// with github.com/rogpeppe/go-internal/testscript, as the Go command and age
// test theirs: one per workflow the README shows and one per problem that
// issue 12 reproduced. Each script runs in a folder of its own, with this
// test binary installed as "shamir" on $PATH.
//
// Besides testscript's own commands, the scripts have:
//
//	fails CODE PROG [ARGS...]
//		run PROG and check that it exits with status CODE
//	signal SIG
//		send SIG (INT, TERM, HUP or QUIT) to the newest background command
//	waitfile [-gone] GLOB
//		wait until a file matches GLOB (or, with -gone, none does)
//	mkfifo NAME
//		make a named pipe
//	feed FIFO FILE [FROM-TO]
//		open FIFO for writing (once), write FILE (or its bytes FROM up to
//		TO, or to its end if TO is empty) into it and keep it open, so
//		the reader waits for more
//	closefifo FIFO
//		close what feed opened: the reader sees the end
//	randfile NAME SIZE
//		write SIZE bytes of random data (deterministic per NAME) to NAME
//	setq VAR 'GO-STRING'
//		set VAR to the value of a quoted Go string, for file names with
//		control characters in them
//	mkpng NAME bomb | NAME grey WIDTH HEIGHT (internal/paper/pngtest)
//		write a PNG: bomb is 77 bytes whose header declares 65535×65535
//		16-bit RGBA pixels; grey is a valid white grey picture
//	forge GENUINE SECRET T OUT... (script_forge_test.go)
//		write an outsider's shares of SECRET, any T of them, one per OUT,
//		under the split ID and generation of the share GENUINE, with
//		every CRC right: only the split's key tells them apart
//	setgen SHARE GEN OUT (script_forge_test.go)
//		write a copy of SHARE with its generation set to GEN and its
//		header CRC recomputed, as an outsider can without any key
//	limitfsize BYTES PROG [ARGS...] (a program on $PATH)
//		run PROG with files limited to BYTES, so writes beyond fail
//	tty [PROMPT ANSWER]... -- PROG [ARGS...] (Linux: script_linux_test.go)
//		run PROG on a pseudo-terminal, typing each ANSWER at its PROMPT
//	age-plugin-testpin (a program on $PATH: plugin_test.go)
//		an age plugin standing for a hardware token with a PIN
//	powercut N shamir [ARGS...] (a program on $PATH)
//		run shamir, killed with SIGKILL before the Nth step of its commit
//		(a sync, write, rename or removal), as a power cut would stop it
//	pauseat N FILE shamir [ARGS...] (a program on $PATH)
//		run shamir, paused before the Nth step of its commit until FILE,
//		which it creates then, is removed
//
// and the conditions [purego], true when the command was built with -tags
// purego (which FIPS 140-3 mode refuses), and [missing:PROG], true when PROG is not on $PATH, for
// "[missing:age] skip": under CI a missing program is an error instead, so
// that CI cannot pass by skipping (test.sh installs them); and [root], true
// when the tests run as root (under CI, not being root is an error).

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gf256/shamir/cmd/shamir/internal/outfile"
	"github.com/gf256/shamir/cmd/shamir/internal/paper/pngtest"
	"github.com/rogpeppe/go-internal/testscript"
)

// helperCmds are the programs the test binary is, besides itself, when run
// under their names (testscript.Main installs them on $PATH).
var helperCmds = map[string]func(){
	"shamir": main,
}

func TestMain(m *testing.M) {
	// Built with -race, the command (this binary) would sleep a second as
	// it exits, for other threads' reports: one second per run.
	if _, ok := os.LookupEnv("GORACE"); !ok {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	if filepath.Base(os.Args[0]) != "shamir" {
		unignoreSignals()
	}
	testscript.Main(m, helperCmds)
}

// unignoreSignals undoes, for the commands the transcripts start, an
// ignored disposition of the signals they test that this test binary
// inherited: a test run started in the background by a shell, or under
// nohup, has SIGINT and SIGQUIT, or SIGHUP, ignored, and would pass that on
// to every command, whose signal transcripts would then wait for a signal
// that cannot arrive. A handled signal is reset to its default in a child
// (an ignored one is not), so such signals are handled here, and dropped;
// the others keep their default, so that Ctrl-C still stops the tests.
func unignoreSignals() {
	for _, sig := range outfile.StopSignals {
		if signal.Ignored(sig) {
			signal.Notify(make(chan os.Signal, 1), sig)
		}
	}
}

// extraScriptCmds are the transcripts' commands of some systems only
// (tty, on Linux: script_linux_test.go).
var extraScriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){}

func TestScripts(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmds := map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"fails":     cmdFails,
		"signal":    cmdSignal,
		"waitfile":  cmdWaitfile,
		"mkfifo":    cmdMkfifo,
		"feed":      cmdFeed,
		"closefifo": cmdClosefifo,
		"randfile":  cmdRandfile,
		"setq":      cmdSetq,
		"splitid":   cmdSplitID,
		"mkpng":     cmdMkpng,
		"forge":     cmdForge,
		"setgen":    cmdSetgen,
		"alter":     cmdAlter,
	}
	for name, f := range extraScriptCmds {
		cmds[name] = f
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Condition:           scriptCondition,
		Setup: func(e *testscript.Env) error {
			e.Setenv("REPO", repo)
			return nil
		},
		Cmds: cmds,
	})
}

func cmdFails(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: fails CODE PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("fails: %v", err)
	}
	err = ts.Exec(args[1], args[2:]...)
	var ee *exec.ExitError
	switch {
	case err == nil:
		ts.Fatalf("%s succeeded, want exit status %d", args[1], want)
	case !errors.As(err, &ee):
		ts.Fatalf("%s: %v", args[1], err)
	case ee.ExitCode() != want:
		ts.Fatalf("%s: exit status %d, want %d", args[1], ee.ExitCode(), want)
	}
}

func cmdSignal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: signal SIG")
	}
	sig, ok := signalsByName[args[0]]
	if !ok {
		ts.Fatalf("signal: unknown signal %q", args[0])
	}
	cmds := ts.BackgroundCmds()
	if len(cmds) == 0 {
		ts.Fatalf("signal: no background command")
	}
	ts.Check(cmds[len(cmds)-1].Process.Signal(sig))
}

// scriptTimeout bounds every wait of the custom commands.
const scriptTimeout = 60 * time.Second

func cmdWaitfile(ts *testscript.TestScript, neg bool, args []string) {
	gone := len(args) == 2 && args[0] == "-gone"
	if neg || len(args) != 1 && !gone {
		ts.Fatalf("usage: waitfile [-gone] GLOB")
	}
	pattern := ts.MkAbs(args[len(args)-1])
	deadline := time.Now().Add(scriptTimeout)
	for {
		m, err := filepath.Glob(pattern)
		ts.Check(err)
		if len(m) > 0 != gone {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("waitfile: %s still %s", args[len(args)-1], pick(gone, "matches", "matches nothing"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// fifos holds the named pipes that feed opened, per script.
var fifos sync.Map // *testscript.TestScript -> map[string]*os.File

func fifoFiles(ts *testscript.TestScript) map[string]*os.File {
	m, loaded := fifos.LoadOrStore(ts, map[string]*os.File{})
	files := m.(map[string]*os.File)
	if !loaded {
		ts.Defer(func() {
			for _, f := range files {
				f.Close()
			}
			fifos.Delete(ts)
		})
	}
	return files
}

func cmdFeed(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 && len(args) != 3 {
		ts.Fatalf("usage: feed FIFO FILE [FROM-TO]")
	}
	data, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	if len(args) == 3 {
		from, to, ok := strings.Cut(args[2], "-")
		i, err := strconv.Atoi(from)
		if !ok || err != nil || i > len(data) {
			ts.Fatalf("feed: bad range %q", args[2])
		}
		j := len(data)
		if to != "" {
			if j, err = strconv.Atoi(to); err != nil || j < i || j > len(data) {
				ts.Fatalf("feed: bad range %q", args[2])
			}
		}
		data = data[i:j]
	}
	files := fifoFiles(ts)
	f := files[args[0]]
	done := make(chan error, 1)
	go func() {
		if f == nil {
			// Opening a pipe for writing waits for its reader.
			var err error
			if f, err = os.OpenFile(ts.MkAbs(args[0]), os.O_WRONLY, 0); err != nil {
				done <- err
				return
			}
		}
		_, err := f.Write(data)
		done <- err
	}()
	select {
	case err := <-done:
		ts.Check(err)
		files[args[0]] = f
	case <-time.After(scriptTimeout):
		ts.Fatalf("feed: %s was not read", args[0])
	}
}

func cmdClosefifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: closefifo FIFO")
	}
	files := fifoFiles(ts)
	f := files[args[0]]
	if f == nil {
		ts.Fatalf("closefifo: %s was not fed", args[0])
	}
	delete(files, args[0])
	ts.Check(f.Close())
}

func cmdRandfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: randfile NAME SIZE")
	}
	n, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	var seed [32]byte
	copy(seed[:], args[0])
	f, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	_, err = io.CopyN(f, rand.NewChaCha8(seed), n)
	ts.Check(err)
	ts.Check(f.Close())
}

// cmdSplitID sets VAR to the first 8 digits of the split ID that the
// last command's stderr names (split prints it), as a person would copy it.
func cmdSplitID(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: splitid VAR")
	}
	m := regexp.MustCompile(`of split ([0-9a-f]{32})`).FindStringSubmatch(ts.ReadFile("stderr"))
	if m == nil {
		ts.Fatalf("splitid: no split ID in stderr")
	}
	ts.Setenv(args[0], m[1][:8])
}

func cmdSetq(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: setq VAR 'GO-STRING'")
	}
	v, err := strconv.Unquote(args[1])
	if err != nil {
		ts.Fatalf("setq: %s: %v", args[1], err)
	}
	ts.Setenv(args[0], v)
}

// scriptCondition evaluates the scripts' own conditions.
func scriptCondition(cond string) (bool, error) {
	switch cond {
	case "purego":
		return puregoBuild, nil
	case "root":
		if os.Geteuid() != 0 && os.Getenv("CI") != "" {
			return false, errors.New("[root]: not root, and CI is set: CI runs the tests as root")
		}
		return os.Geteuid() == 0, nil
	}
	prog, ok := strings.CutPrefix(cond, "missing:")
	if !ok {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	if _, err := exec.LookPath(prog); err == nil {
		return false, nil
	}
	if os.Getenv("CI") != "" {
		return false, fmt.Errorf("%s is missing, and CI is set: test.sh installs it", prog)
	}
	return true, nil
}

// cmdMkpng writes one of the pictures of picture_test.go.
func cmdMkpng(ts *testscript.TestScript, neg bool, args []string) {
	usage := "usage: mkpng NAME bomb | NAME grey WIDTH HEIGHT"
	if neg || len(args) < 2 {
		ts.Fatalf("%s", usage)
	}
	f, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	switch {
	case args[1] == "bomb" && len(args) == 2:
		_, err = f.Write(pngtest.Bomb())
	case args[1] == "grey" && len(args) == 4:
		w, err1 := strconv.Atoi(args[2])
		h, err2 := strconv.Atoi(args[3])
		ts.Check(errors.Join(err1, err2))
		err = pngtest.WriteGrey(f, w, h)
	default:
		ts.Fatalf("%s", usage)
	}
	ts.Check(err)
	ts.Check(f.Close())
}
