package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"filippo.io/age"
	"filippo.io/age/plugin"
)

// The program age-plugin-testpin stands for a hardware token in the tests:
// an age plugin, made with age's own plugin framework, whose identity
// unwraps a file key only after the person types the token's PIN, which
// it asks for through the plugin protocol (so shamir asks on the terminal).
// Its keys are an X25519 key pair inside: the recipient
// age1testpin1… carries the age1… public key, the identity
// AGE-PLUGIN-TESTPIN-1… the PIN and the AGE-SECRET-KEY-1… key, and its
// stanzas are X25519 ones renamed "testpin".
//
// "age-plugin-testpin -keygen PIN" prints a new identity file, with the
// recipient in a "# recipient:" comment, as age-plugin-yubikey does.

func init() { helperCmds["age-plugin-testpin"] = testpinMain }

const testpinStanza = "testpin"

func testpinMain() {
	p, err := plugin.New("testpin")
	if err != nil {
		panic(err)
	}
	fs := flag.NewFlagSet("age-plugin-testpin", flag.ExitOnError)
	keygen := fs.String("keygen", "", "print a new identity whose PIN is `PIN`")
	p.RegisterFlags(fs)
	fs.Parse(os.Args[1:])
	if *keygen != "" {
		k, err := age.GenerateX25519Identity()
		if err != nil {
			panic(err)
		}
		fmt.Printf("# recipient: %s\n", plugin.EncodeRecipient("testpin", []byte(k.Recipient().String())))
		fmt.Println(plugin.EncodeIdentity("testpin", []byte(*keygen+"\n"+k.String())))
		os.Exit(0)
	}
	p.HandleRecipient(func(data []byte) (age.Recipient, error) {
		r, err := age.ParseX25519Recipient(string(data))
		if err != nil {
			return nil, err
		}
		return testpinRecipient{r}, nil
	})
	p.HandleIdentity(func(data []byte) (age.Identity, error) {
		pin, key, ok := strings.Cut(string(data), "\n")
		if !ok {
			return nil, errors.New("malformed testpin identity")
		}
		id, err := age.ParseX25519Identity(key)
		if err != nil {
			return nil, err
		}
		return &testpinIdentity{p, pin, id}, nil
	})
	os.Exit(p.Main())
}

type testpinRecipient struct{ r *age.X25519Recipient }

func (t testpinRecipient) Wrap(fileKey []byte) ([]*age.Stanza, error) {
	ss, err := t.r.Wrap(fileKey)
	for _, s := range ss {
		s.Type = testpinStanza
	}
	return ss, err
}

type testpinIdentity struct {
	p   *plugin.Plugin
	pin string
	id  *age.X25519Identity
}

func (t *testpinIdentity) Unwrap(stanzas []*age.Stanza) ([]byte, error) {
	var ours []*age.Stanza
	for _, s := range stanzas {
		if s.Type == testpinStanza {
			c := *s
			c.Type = "X25519"
			ours = append(ours, &c)
		}
	}
	// As a token tells its own stanzas from others' before it asks for
	// its PIN, so does this one, by trying its key first.
	key, err := t.id.Unwrap(ours)
	if err != nil {
		return nil, err
	}
	t.p.DisplayMessage("the token is unlocked with its PIN")
	pin, err := t.p.RequestValue("PIN for the testpin token:", true)
	if err != nil {
		return nil, err
	}
	if pin != t.pin {
		return nil, errors.New("wrong PIN")
	}
	return key, nil
}

func TestIsPluginRecipient(t *testing.T) {
	x, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	pq, err := age.GenerateHybridIdentity()
	if err != nil {
		t.Fatal(err)
	}
	for s, want := range map[string]bool{
		x.Recipient().String():                              false,
		pq.Recipient().String():                             false,
		plugin.EncodeRecipient("yubikey", []byte("a slot")): true,
		"age1nothere1vys8gmmtv4hzwueqddjhjups98f":           true,
		"age1nothere1vys8gmmtv4hzwueqddjhjups98g":           false, // bad checksum
		"ssh-ed25519 AAAA":                                  false,
	} {
		if got := isPluginRecipient(s); got != want {
			t.Errorf("isPluginRecipient(%.30q) = %v, want %v", s, got, want)
		}
	}
	ids, err := parseIdentityFile([]byte("# a token\n"+plugin.EncodeIdentity("testpin", []byte("x"))+"\n\n"+x.String()+"\n"), "ids.txt")
	if err != nil || len(ids) != 2 {
		t.Fatalf("parseIdentityFile: %d identities, %v", len(ids), err)
	}
	if _, err := parseIdentityFile([]byte("AGE-PLUGIN-BAD\n"), "ids.txt"); err == nil {
		t.Error("parseIdentityFile took a malformed plugin identity")
	}
}
