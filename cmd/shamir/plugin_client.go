package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"filippo.io/age"
)

// This file runs an age plugin to unwrap a file key or to wrap one (the
// identity-v1 and recipient-v1 state machines of the age plugin protocol,
// C2SP age-plugin), in place of age's own client, to hold the plugin to a
// budget: a program that floods its output, hangs or dies is a token's
// plugin gone wrong, and must cost shamir neither unbounded memory nor a
// process left behind.
//
//   - Its output is read through a bounded reader: a line of at most
//     maxPluginLine bytes, at most maxPluginOutput bytes in all. A plugin
//     that sends more is killed, and its identity fails.
//   - It runs in a process group of its own, killed (with whatever it
//     started) when the exchange ends, on every path, and by the signal
//     handler when shamir is stopped (killPlugins).
//   - What it says (messages, prompts, errors) is shown with its control
//     characters escaped (visible).

const (
	maxPluginLine   = 4 << 10
	maxPluginOutput = 1 << 20
)

// errPluginFlood is a plugin that sent more than the budget allows.
var errPluginFlood = fmt.Errorf("it sent a line over %d KiB, or over %d MiB in all", maxPluginLine>>10, maxPluginOutput>>20)

// A pluginStanza is one stanza of the plugin protocol.
type pluginStanza struct {
	typ  string
	args []string
	body []byte
}

// stanzaColumns is the width of a stanza's body lines, in base64
// characters: the last line is shorter (maybe empty), which ends the body.
const stanzaColumns = 64

var rawB64 = base64.RawStdEncoding.Strict()

// writeStanza writes s in the protocol's encoding.
func writeStanza(w io.Writer, typ string, args []string, body []byte) error {
	var b bytes.Buffer
	b.WriteString("-> " + typ)
	for _, a := range args {
		b.WriteString(" " + a)
	}
	b.WriteByte('\n')
	enc := rawB64.EncodeToString(body)
	for len(enc) >= stanzaColumns {
		b.WriteString(enc[:stanzaColumns] + "\n")
		enc = enc[stanzaColumns:]
	}
	b.WriteString(enc + "\n")
	_, err := w.Write(b.Bytes())
	return err
}

// A boundedLines reads the lines of a plugin's output within the budget.
type boundedLines struct {
	r    *bufio.Reader
	read int
}

func (l *boundedLines) line() (string, error) {
	var line []byte
	for {
		frag, err := l.r.ReadSlice('\n')
		l.read += len(frag)
		if len(line)+len(frag) > maxPluginLine || l.read > maxPluginOutput {
			return "", errPluginFlood
		}
		line = append(line, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}
		return string(line[:len(line)-1]), nil
	}
}

// stanza reads one stanza.
func (l *boundedLines) stanza() (*pluginStanza, error) {
	head, err := l.line()
	if err != nil {
		return nil, err
	}
	fields, ok := strings.CutPrefix(head, "-> ")
	if !ok {
		if len(head) > 40 {
			head = head[:40] + "…"
		}
		return nil, fmt.Errorf("it sent a malformed stanza: %s", visible(head))
	}
	f := strings.Split(fields, " ")
	s := &pluginStanza{typ: f[0], args: f[1:]}
	var enc strings.Builder
	for {
		line, err := l.line()
		if err != nil {
			return nil, err
		}
		if len(line) > stanzaColumns {
			return nil, errors.New("malformed stanza body")
		}
		enc.WriteString(line)
		if len(line) < stanzaColumns {
			break
		}
	}
	if s.body, err = rawB64.DecodeString(enc.String()); err != nil {
		return nil, errors.New("malformed stanza body")
	}
	return s, nil
}

// The plugins running, for the signal handler to kill.
var plugins struct {
	sync.Mutex
	running map[*exec.Cmd]bool
}

// killPlugins kills every plugin running, and what each started: shamir
// is being stopped.
func killPlugins() {
	plugins.Lock()
	defer plugins.Unlock()
	for cmd := range plugins.running {
		killGroup(cmd)
	}
}

// pluginUnwrap runs age-plugin-name to unwrap the file key of stanzas with
// the identity (AGE-PLUGIN-…). It returns age.ErrIncorrectIdentity when the
// plugin finds none of the stanzas its own.
func pluginUnwrap(name, identity string, stanzas []*age.Stanza) ([]byte, error) {
	send := []pluginStanza{{typ: "add-identity", args: []string{identity}}}
	for _, st := range stanzas {
		send = append(send, pluginStanza{typ: "recipient-stanza", args: append([]string{"0", st.Type}, st.Args...), body: st.Body})
	}
	var key []byte
	err := runPlugin(name, "identity-v1", send, func(s *pluginStanza) (bool, error) {
		if s.typ != "file-key" {
			return false, nil
		}
		if len(s.args) != 1 || s.args[0] != "0" || key != nil {
			return true, errors.New("it sent a malformed file key")
		}
		key = s.body
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	if key == nil {
		return nil, age.ErrIncorrectIdentity
	}
	return key, nil
}

// pluginWrap runs age-plugin-name to wrap fileKey to the recipient
// (age1NAME1…), and returns the stanzas and labels it made.
func pluginWrap(name, recipient string, fileKey []byte) (stanzas []*age.Stanza, labels []string, err error) {
	send := []pluginStanza{
		{typ: "add-recipient", args: []string{recipient}},
		{typ: "wrap-file-key", body: fileKey},
		{typ: "extension-labels"},
	}
	err = runPlugin(name, "recipient-v1", send, func(s *pluginStanza) (bool, error) {
		switch s.typ {
		case "recipient-stanza":
			if len(s.args) < 2 || s.args[0] != "0" {
				return true, errors.New("it sent a malformed stanza")
			}
			stanzas = append(stanzas, &age.Stanza{Type: s.args[1], Args: s.args[2:], Body: s.body})
			return true, nil
		case "labels":
			if labels != nil {
				return true, errors.New("it sent its labels twice")
			}
			labels = append([]string{}, s.args...)
			return true, nil
		}
		return false, nil
	})
	if err == nil && len(stanzas) == 0 {
		err = errors.New("it made no stanza")
	}
	if err != nil {
		return nil, nil, err
	}
	return stanzas, labels, nil
}

// runPlugin runs age-plugin-name in the state machine protocol: it sends
// the stanzas of phase 1, then answers the plugin's commands until it is
// done. handle takes the commands of the protocol (file-key, or
// recipient-stanza and labels), reporting whether it took s: the others
// (msg, request-public, request-secret, confirm, error) are the same in
// every protocol. A command that handle took is answered ok.
func runPlugin(name, protocol string, send []pluginStanza, handle func(s *pluginStanza) (bool, error)) error {
	path, err := exec.LookPath("age-plugin-" + name)
	if err != nil {
		return &pluginNotFound{err}
	}
	cmd := exec.Command(path, "--age-plugin="+protocol)
	cmd.Dir = os.TempDir() // as age does: not shamir's working folder
	setGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	plugins.Lock()
	if plugins.running == nil {
		plugins.running = map[*exec.Cmd]bool{}
	}
	if err := cmd.Start(); err != nil {
		plugins.Unlock()
		return err
	}
	plugins.running[cmd] = true
	plugins.Unlock()
	finished := false // the plugin said done
	defer func() {
		// However it ends, the plugin and what it started end with it:
		// one that finished has a moment to exit once its input is
		// closed, as age gives it, and then its process group is
		// killed.
		stdin.Close()
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		if finished {
			select {
			case <-exited:
			case <-time.After(time.Second):
			}
		}
		killGroup(cmd)
		<-exited
		plugins.Lock()
		delete(plugins.running, cmd)
		plugins.Unlock()
	}()

	// Phase 1, sent from a goroutine so that a plugin that does not read
	// it cannot block us: closing stdin ends the goroutine.
	go func() {
		w := bufio.NewWriter(stdin)
		for _, s := range append(send, pluginStanza{typ: "done"}) {
			if writeStanza(w, s.typ, s.args, s.body) != nil {
				return
			}
		}
		w.Flush()
	}()

	// Phase 2: the plugin's commands, until done. A plugin that says
	// nothing for a while is waiting for its token: say so.
	timer := time.AfterFunc(5*time.Second, func() { pluginUI.WaitTimer(name) })
	defer timer.Stop()
	in := &boundedLines{r: bufio.NewReaderSize(stdout, 4096)}
	reply := func(typ string, args []string, body []byte) error {
		return writeStanza(stdin, typ, args, body)
	}
	for {
		s, err := in.stanza()
		timer.Stop()
		if err == io.ErrUnexpectedEOF {
			return errors.New("it ended without finishing (it exited or crashed)")
		}
		if err != nil {
			return err
		}
		if took, err := handle(s); took || err != nil {
			if err != nil {
				return err
			}
			if err := reply("ok", nil, nil); err != nil {
				return fmt.Errorf("it stopped reading: %v", err)
			}
			continue
		}
		switch s.typ {
		case "msg":
			pluginUI.DisplayMessage(name, string(s.body))
			err = reply("ok", nil, nil)
		case "request-public", "request-secret":
			v, rerr := pluginUI.RequestValue(name, visible(string(s.body)), s.typ == "request-secret")
			if rerr != nil {
				err = reply("fail", nil, nil)
			} else {
				err = reply("ok", nil, []byte(v))
			}
		case "confirm":
			yes, no, ok := confirmChoices(s.args)
			if !ok {
				err = reply("fail", nil, nil)
				break
			}
			chose, cerr := pluginUI.Confirm(name, visible(string(s.body)), visible(yes), visible(no))
			switch {
			case cerr != nil:
				err = reply("fail", nil, nil)
			case chose:
				err = reply("ok", []string{"yes"}, nil)
			default:
				err = reply("ok", []string{"no"}, nil)
			}
		case "error":
			reply("ok", nil, nil)
			return fmt.Errorf("%s", visible(string(s.body)))
		case "done":
			finished = true
			return nil
		default:
			err = reply("unsupported", nil, nil)
		}
		if err != nil {
			return fmt.Errorf("it stopped reading: %v", err)
		}
	}
}

// confirmChoices decodes the choices of a confirm command: yes, and
// perhaps no, each base64.
func confirmChoices(args []string) (yes, no string, ok bool) {
	if len(args) < 1 || len(args) > 2 {
		return "", "", false
	}
	y, err := rawB64.DecodeString(args[0])
	if err != nil {
		return "", "", false
	}
	if len(args) == 2 {
		n, err := rawB64.DecodeString(args[1])
		if err != nil {
			return "", "", false
		}
		no = string(n)
	}
	return string(y), no, true
}

// A pluginNotFound is a plugin program that is not installed.
type pluginNotFound struct{ err error }

func (e *pluginNotFound) Error() string { return e.err.Error() }
func (e *pluginNotFound) Unwrap() error { return e.err }

// visible returns s with its control characters, and bytes that are not
// UTF-8, escaped as Go does in a quoted string: what a plugin says is
// shown, never obeyed by the terminal.
func visible(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case r < ' ' || r == 0x7f || r >= 0x80 && r < 0xa0:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
		s = s[n:]
	}
	return b.String()
}
