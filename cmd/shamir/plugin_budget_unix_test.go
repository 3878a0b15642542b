//go:build unix

package main

// Age plugins gone wrong (issue 25, item 3): shell scripts that stand for
// a token's plugin that floods its output, hangs, dies, or prints escape
// codes. Each must leave shamir's memory bounded and no process behind,
// and combine must go on with the shares the other identities open.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"filippo.io/age"
	"filippo.io/age/plugin"
)

// fakePlugins are the scripts, each installed as age-plugin-NAME. Each
// writes its PID, and that of a child it started, to $PLUGIN_PIDS.
var fakePlugins = map[string]string{
	// 1 GB without a newline.
	"flood": `echo $$ >> "$PLUGIN_PIDS"; head -c 1000000000 /dev/zero | tr '\0' a`,
	// Waits for ever, with a child that waits too.
	"hang": `echo $$ >> "$PLUGIN_PIDS"; sleep 600 & echo $! >> "$PLUGIN_PIDS"; wait`,
	// Exits at once.
	"die": `echo $$ >> "$PLUGIN_PIDS"; exit 3`,
	// Reads phase 1, then says a message full of escape codes, and
	// finds no stanza its own.
	"shout": `echo $$ >> "$PLUGIN_PIDS"
while read -r line; do [ "$line" = "-> done" ] && break; done
read -r body
printf -- '-> msg\n%s\n' "$(printf '\033[2J\033]0;pwned\007red\033[0m' | base64 -w0 | tr -d =)"
read -r ok; read -r okbody
printf -- '-> done\n\n'`,
}

// rssBound is the memory a run with a plugin that floods may take: under
// -short, as test.sh runs the race detector, whose shadow memory
// multiplies a process's, it is larger, and still far under the 2 GB an
// unbounded read took.
func rssBound() int64 {
	if testing.Short() {
		return 1 << 30
	}
	return 200 << 20
}

// pluginShares splits a secret into 3 shares, threshold 2, in dir/s: the
// first two encrypted to alice, the third to carol, and writes ids.txt:
// alice's key and the identity of the fake plugin name, which combine runs
// for carol's file, the one alice's key does not open.
func pluginShares(t *testing.T, dir, name string) {
	t.Helper()
	writeFile(t, dir, "key.bin", []byte("the secret, recovered"))
	must(t, runCmd(t, dir, nil, "split", "-n", "3", "-t", "2", "-o", "s", "key.bin"), "split")
	alice, _ := age.GenerateX25519Identity()
	carol, _ := age.GenerateX25519Identity()
	for i, r := range []age.Recipient{alice.Recipient(), alice.Recipient(), carol.Recipient()} {
		plain := filepath.Join(dir, "s", "key.bin."+strconv.Itoa(i+1)+"-of-3.shamir")
		data, err := os.ReadFile(plain)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		w, _ := age.Encrypt(&b, r)
		w.Write(data)
		w.Close()
		writeFile(t, filepath.Join(dir, "s"), filepath.Base(plain)+".age", b.Bytes())
		os.Remove(plain)
	}
	writeFile(t, dir, "ids.txt", []byte(alice.String()+"\n"+plugin.EncodeIdentity(name, []byte("x"))+"\n"))
}

// pluginCmd returns combine with the fake plugins on $PATH.
func pluginCmd(t *testing.T, dir string) *exec.Cmd {
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o700)
	for name, script := range fakePlugins {
		if err := os.WriteFile(filepath.Join(bin, "age-plugin-"+name), []byte("#!/bin/sh\n"+script+"\n"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(binary, "combine", "-i", "ids.txt", "-o", "out.bin", "s")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "PLUGIN_PIDS="+filepath.Join(dir, "pids"))
	return cmd
}

// alive reports whether the process pid runs (a zombie does not).
func alive(pid int) bool {
	if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		_, after, _ := strings.Cut(string(stat), ") ")
		return !strings.HasPrefix(after, "Z")
	}
	if _, err := os.Stat("/proc/self"); err == nil {
		return false // a Linux /proc, which no longer lists it
	}
	return syscall.Kill(pid, 0) == nil
}

// noPluginLeft checks that every process the fake plugins wrote down has
// ended, and, where /proc lists processes, that no process of the plugin
// is left at all: those it did not write down (flood's head and tr) are
// found by the environment they inherited, $PLUGIN_PIDS naming dir.
func noPluginLeft(t *testing.T, dir string) {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(dir, "pids"))
	pids := strings.Fields(string(data))
	if len(pids) == 0 {
		t.Fatal("the plugin never ran")
	}
	deadline := time.Now().Add(3 * time.Second)
	for _, p := range pids {
		pid, _ := strconv.Atoi(p)
		for alive(pid) {
			if time.Now().After(deadline) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("the plugin's process %d runs on after combine", pid)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	for _, pid := range pluginProcesses(t, dir, 0) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("a process of the plugin, %d (%s), runs on after combine", pid, cmdline(pid))
	}
}

// procLists reports whether /proc lists processes and their environments.
func procLists() bool {
	_, err := os.Stat("/proc/self/environ")
	return err == nil
}

// pluginProcesses returns the live processes, found in /proc, whose
// environment has the $PLUGIN_PIDS that pluginCmd set for dir, but the
// process shamir (0: none), which has it too: the fake plugin and every
// process it started. Without a /proc that lists processes, it finds none.
func pluginProcesses(t *testing.T, dir string, shamir int) []int {
	t.Helper()
	if !procLists() {
		return nil
	}
	mark := []byte("\x00PLUGIN_PIDS=" + filepath.Join(dir, "pids") + "\x00")
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var found []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() || pid == shamir {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(append([]byte{0}, env...), mark) || !alive(pid) {
			continue // another user's, gone, or not the plugin's
		}
		found = append(found, pid)
	}
	return found
}

// cmdline returns the command line of process pid, for messages.
func cmdline(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
}

// TestPluginsGoneWrong runs combine with each plugin that fails: the file
// it was to open is named, combine recovers the secret from alice's two,
// its memory stays bounded, and no process is left.
func TestPluginsGoneWrong(t *testing.T) {
	for _, name := range []string{"flood", "die", "shout"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			pluginShares(t, dir, name)
			cmd := pluginCmd(t, dir)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			err := cmd.Run()
			t.Logf("%v, %d MiB, %v:\n%s", err, maxRSS(cmd.ProcessState)>>20, time.Since(start), stderr.String())
			if err != nil {
				t.Fatalf("combine: %v", err)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "out.bin")); string(got) != "the secret, recovered" {
				t.Errorf("recovered %q", got)
			}
			if rss := maxRSS(cmd.ProcessState); rss > rssBound() {
				t.Errorf("%d MiB resident", rss>>20)
			}
			if strings.ContainsAny(stderr.String(), "\x1b\x07") {
				t.Errorf("escape codes reached stderr raw")
			}
			want := map[string]string{
				"flood": `ignored "s/key.bin.3-of-3.shamir.age": not a share file (encrypted with age, but cannot be decrypted: the identity in "ids.txt": age-plugin-flood failed: it sent a line over 4 KiB`,
				"die":   `ignored "s/key.bin.3-of-3.shamir.age": not a share file (encrypted with age, but cannot be decrypted: the identity in "ids.txt": age-plugin-die failed: it ended without finishing`,
				"shout": `age-plugin-shout: \x1b[2J\x1b]0;pwned\ared\x1b[0m`,
			}[name]
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr does not say %q", want)
			}
			noPluginLeft(t, dir)
		})
	}
}

// TestPluginHangs stops combine, waiting on a plugin that hangs, with each
// stop signal: the plugin and its child end with it, and combine's memory
// stays bounded.
func TestPluginHangs(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT} {
		dir := t.TempDir()
		pluginShares(t, dir, "hang")
		cmd := pluginCmd(t, dir)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
			if data, _ := os.ReadFile(filepath.Join(dir, "pids")); len(strings.Fields(string(data))) == 2 {
				break
			}
			if time.Since(start) > 10*time.Second {
				cmd.Process.Kill()
				t.Fatalf("the plugin never started:\n%s", stderr.String())
			}
		}
		// The scan of /proc finds the plugin that runs, so finding none
		// after means none is left, not that the scan is blind.
		if ps := pluginProcesses(t, dir, cmd.Process.Pid); len(ps) != 2 && procLists() {
			t.Errorf("%v: /proc shows not the plugin's shell and its sleep: %v", sig, ps)
		}
		cmd.Process.Signal(sig)
		cmd.Wait()
		if !strings.Contains(stderr.String(), "stopped") || cmd.ProcessState.ExitCode() == 0 {
			t.Errorf("%v: %v: %s", sig, cmd.ProcessState, stderr.String())
		}
		if rss := maxRSS(cmd.ProcessState); rss > rssBound() {
			t.Errorf("%v: %d MiB resident", sig, rss>>20)
		}
		noPluginLeft(t, dir)
	}
}

// TestPluginSplit runs split to a recipient of each plugin that fails:
// split stops, naming the plugin, writes nothing, stays small and leaves
// no process behind.
func TestPluginSplit(t *testing.T) {
	for _, name := range []string{"flood", "die", "shout"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "key.bin", []byte("a secret"))
			bob, _ := age.GenerateX25519Identity()
			cmd := pluginCmd(t, dir)
			cmd.Args = []string{binary, "split", "-t", "2", "-r", "alice:" + plugin.EncodeRecipient(name, []byte("x")),
				"-r", "bob:" + bob.Recipient().String(), "-o", "out", "key.bin"}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			t.Logf("%v, %d MiB:\n%s", err, maxRSS(cmd.ProcessState)>>20, stderr.String())
			if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(stderr.String(), "age-plugin-"+name+" failed") {
				t.Errorf("split: %v", err)
			}
			if rss := maxRSS(cmd.ProcessState); rss > rssBound() {
				t.Errorf("%d MiB resident", rss>>20)
			}
			if strings.ContainsAny(stderr.String(), "\x1b\x07") {
				t.Errorf("escape codes reached stderr raw")
			}
			noLeftovers(t, dir, "bin", "key.bin", "pids")
			noPluginLeft(t, dir)
		})
	}
}

// TestPluginParentKilled kills combine with SIGKILL, which no handler
// sees, while a plugin hangs: on Linux the plugin dies with it (its own
// children, in its process group, are then the plugin's to end).
func TestPluginParentKilled(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("not Linux")
	}
	dir := t.TempDir()
	pluginShares(t, dir, "hang")
	cmd := pluginCmd(t, dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pids []string
	for start := time.Now(); len(pids) < 2; time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile(filepath.Join(dir, "pids"))
		pids = strings.Fields(string(data))
		if time.Since(start) > 10*time.Second {
			cmd.Process.Kill()
			t.Fatal("the plugin never started")
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	leader, _ := strconv.Atoi(pids[0])
	child, _ := strconv.Atoi(pids[1])
	defer syscall.Kill(child, syscall.SIGKILL)
	for start := time.Now(); alive(leader); time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > 3*time.Second {
			syscall.Kill(leader, syscall.SIGKILL)
			t.Fatal("the plugin runs on after combine was killed")
		}
	}
	// Nothing else of the plugin is left: only the sleep it started,
	// which no one can end once shamir is gone.
	for _, pid := range pluginProcesses(t, dir, 0) {
		if pid != child {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("a process of the plugin, %d (%s), runs on after combine was killed", pid, cmdline(pid))
		}
	}
}
