package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"filippo.io/age"
	"filippo.io/age/plugin"
)

// This file is the holders whose share lives on a hardware token (a
// YubiKey, a FIDO2 key, a TPM, the Secure Enclave), reached through age's
// plugins: a holder's recipient age1NAME1… (age1yubikey1…, age1tpm1…) makes
// split run the program age-plugin-NAME to encrypt their share, and an
// identity AGE-PLUGIN-NAME-1… in an -i file makes combine, verify, attest
// and the lifecycle commands run it to decrypt. What the plugin asks of the
// person (a PIN, a touch, a confirmation) is asked on the terminal, as age
// asks it.

// pluginUI shows a plugin's messages on stderr and asks its questions on
// the terminal of the session (/dev/tty), without echo for secrets.
var pluginUI = &plugin.ClientUI{
	DisplayMessage: func(name, message string) error {
		sayf(os.Stderr, "age-plugin-%s: %s", name, visible(message))
		return nil
	},
	RequestValue: func(name, prompt string, secret bool) (string, error) {
		prompt = strings.TrimRight(prompt, " ") + " "
		var v []byte
		var err error
		if secret {
			v, err = askPassphrase(prompt)
		} else {
			v, err = askLine(prompt)
		}
		if err != nil {
			warnf(os.Stderr, "age-plugin-%s asked %q: %v", name, strings.TrimSpace(prompt), err)
			return "", err
		}
		defer zero(v)
		return string(v), nil
	},
	Confirm: func(name, prompt, yes, no string) (bool, error) {
		for {
			q := fmt.Sprintf("%s [%s]: ", prompt, yes)
			if no != "" {
				q = fmt.Sprintf("%s [%s/%s]: ", prompt, yes, no)
			}
			a, err := askLine(q)
			if err != nil {
				warnf(os.Stderr, "age-plugin-%s asked %q: %v", name, prompt, err)
				return false, err
			}
			switch s := strings.TrimSpace(string(a)); {
			case s == "" && no == "", strings.EqualFold(s, yes):
				return true, nil
			case no != "" && strings.EqualFold(s, no):
				return false, nil
			}
		}
	},
	WaitTimer: func(name string) {
		sayf(os.Stderr, "waiting for age-plugin-%s (touch your token if it blinks)", name)
	},
}

// askLine asks for a line on the terminal, shown as it is typed.
func askLine(prompt string) ([]byte, error) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil || !isTerminal(tty) {
		if err == nil {
			tty.Close()
		}
		return nil, errors.New("no terminal to ask on (no /dev/tty)")
	}
	defer tty.Close()
	fmt.Fprint(tty, prompt)
	line, err := bufio.NewReader(tty).ReadString('\n')
	return []byte(strings.TrimRight(line, "\r\n")), err
}

// isPluginRecipient reports whether s is a plugin's recipient, age1NAME1…:
// not a native age1… key (X25519, or age1pq1… post-quantum).
func isPluginRecipient(s string) bool {
	name, _, err := plugin.ParseRecipient(s)
	return err == nil && name != "pq" && strings.HasPrefix(s, "age1")
}

// newPluginRecipient makes the recipient of a plugin from s (age1NAME1…).
// A plugin that is not installed is said at once, before anything is
// written.
func newPluginRecipient(s string) (age.Recipient, error) {
	r, err := plugin.NewRecipient(s, pluginUI)
	if err != nil {
		return nil, err
	}
	if _, err := exec.LookPath("age-plugin-" + r.Name()); err != nil {
		return nil, pluginError(r.Name(), shortKey(s), &plugin.NotFoundError{Name: r.Name(), Err: err})
	}
	return &pluginRecipient{r}, nil
}

// A pluginRecipient is a plugin's recipient whose errors name the program.
type pluginRecipient struct{ r *plugin.Recipient }

func (p *pluginRecipient) Wrap(fileKey []byte) ([]*age.Stanza, error) {
	s, _, err := p.WrapWithLabels(fileKey)
	return s, err
}

func (p *pluginRecipient) WrapWithLabels(fileKey []byte) ([]*age.Stanza, []string, error) {
	s, l, err := pluginWrap(p.r.Name(), p.r.String(), fileKey)
	if err != nil {
		return nil, nil, pluginError(p.r.Name(), "encrypting to "+shortKey(p.r.String()), err)
	}
	return s, l, nil
}

// A pluginIdentity is a plugin's identity (AGE-PLUGIN-NAME-1…), run by
// pluginUnwrap (plugin_client.go). A missing plugin stops the command:
// every other file would fail the same way, and the remedy is to install
// it. A plugin that fails (a wrong PIN, a token unplugged, a plugin that
// floods or crashes) fails the files it was asked to open, which are named
// as files that could not be opened, and the command goes on with the
// others; it is not run again, so that a token is not asked for a PIN
// once more for each file (three wrong PINs lock many).
type pluginIdentity struct {
	name     string // NAME, of the program age-plugin-NAME
	identity string // AGE-PLUGIN-NAME-1…
	from     string // the -i file, for messages
	failed   error  // its failure, once it failed
}

func (p *pluginIdentity) Unwrap(stanzas []*age.Stanza) ([]byte, error) {
	if p.failed != nil {
		return nil, p.failed
	}
	key, err := pluginUnwrap(p.name, p.identity, stanzas)
	if err == nil || errors.Is(err, age.ErrIncorrectIdentity) {
		return key, err
	}
	if nf := (*pluginNotFound)(nil); errors.As(err, &nf) {
		return nil, &identityError{pluginError(p.name, "the identity in "+quote(p.from), err)}
	}
	p.failed = pluginError(p.name, "the identity in "+quote(p.from), err)
	return nil, p.failed
}

// pluginError words the failure of the plugin name: a missing program
// names the one to install.
func pluginError(name, what string, err error) error {
	bin := "age-plugin-" + name
	var nf *plugin.NotFoundError
	var pnf *pluginNotFound
	if errors.As(err, &nf) || errors.As(err, &pnf) {
		return withHints(fmt.Errorf("%s needs the program %s, which is not installed (not on $PATH)", what, bin),
			fmt.Sprintf("install %s (the plugin for that token) and run again", bin))
	}
	return fmt.Errorf("%s: %s failed: %v", what, bin, err)
}

// parseIdentityFile parses a file of age identities, as age -i reads one:
// native keys (AGE-SECRET-KEY-1…) by package age, plugin identities
// (AGE-PLUGIN-NAME-1…) as plugins' identities; blank lines and # comments
// are skipped. from names the file in messages.
func parseIdentityFile(data []byte, from string) ([]age.Identity, error) {
	var native bytes.Buffer
	var plugins []age.Identity
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxIdentityFile)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "AGE-PLUGIN-") {
			native.WriteString(line + "\n")
			continue
		}
		name, _, err := plugin.ParseIdentity(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: a plugin identity (AGE-PLUGIN-…) age cannot read: %v", n, err)
		}
		native.WriteString("\n") // line numbers stay those of the file
		plugins = append(plugins, &pluginIdentity{name: name, identity: line, from: from})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(plugins) > 0 && !hasKeyLine(native.Bytes()) {
		return plugins, nil
	}
	ids, err := age.ParseIdentities(&native)
	if err != nil {
		return nil, err
	}
	return append(ids, plugins...), nil
}

// hasKeyLine reports whether data has a line that is not blank or a
// comment.
func hasKeyLine(data []byte) bool {
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return true
		}
	}
	return false
}
