package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Go's encoding/json matches a key to a field whatever its case, and of a
// key given twice keeps the last. Other readers of the same file (jq,
// Python) keep keys as written, so that a manifest holding "threshold": 2
// and "THRESHOLD": 3 would tell them 2 and shamir 3. checkKeys therefore
// walks the JSON before it is decoded and refuses, in every object, a key
// that is not one of the fields' exact names and a key given twice: what
// shamir reads is then what any reader of the file reads.

// manifestKeys and shareKeys are the exact names of the keys of a manifest
// and of a share entry, from the fields' tags.
var (
	manifestKeys = jsonKeys(reflect.TypeFor[Manifest]())
	shareKeys    = jsonKeys(reflect.TypeFor[Share]())
)

func jsonKeys(t reflect.Type) []string {
	var keys []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		keys = append(keys, name)
	}
	return keys
}

// checkKeys walks the JSON document data and refuses an object key that is
// not one of its object's, or that is given twice; it also refuses more
// than MaxShares share entries before they are decoded. What is not JSON,
// or not of the manifest's shape, is left to the decoder to refuse.
func checkKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	t, err := dec.Token()
	if err != nil || t != json.Delim('{') {
		return nil
	}
	return walkObject(dec, "a manifest's", manifestKeys, "")
}

// walkObject checks the keys of the object whose '{' dec has just read,
// and the objects within it, up to its '}'. what and keys name its kind
// and its keys; in prefixes its messages.
func walkObject(dec *json.Decoder, what string, keys []string, in string) error {
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		key, _ := t.(string)
		if seen[key] {
			return fmt.Errorf("%skey %q given twice", in, key)
		}
		seen[key] = true
		if !containsExact(keys, key) {
			err := fmt.Errorf("%skey %q is not one of %s", in, key, what)
			for _, k := range keys {
				if strings.EqualFold(k, key) {
					err = fmt.Errorf("%s (did you mean %q?)", err, k)
				}
			}
			return err
		}
		if key == "shares" && in == "" {
			if err := walkShares(dec); err != nil {
				return err
			}
			continue
		}
		if err := skipValue(dec, 0); err != nil {
			if err == errNotJSON {
				return nil
			}
			return err
		}
	}
	return nil
}

// walkShares checks the share entries of the list dec is about to read.
func walkShares(dec *json.Decoder) error {
	t, err := dec.Token()
	if err != nil || t != json.Delim('[') {
		return nil
	}
	for n := 1; dec.More(); n++ {
		if n > MaxShares {
			return fmt.Errorf(`"shares" lists more than %d shares: a split has at most %d`, MaxShares, MaxShares)
		}
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		if t != json.Delim('{') {
			continue // not an entry: the decoder says so
		}
		if err := walkObject(dec, "a share entry's", shareKeys, fmt.Sprintf("share entry %d: ", n)); err != nil {
			return err
		}
		if _, err := dec.Token(); err != nil { // '}'
			return nil
		}
	}
	return nil
}

// errNotJSON stops the walk where the JSON is malformed, or nested deeper
// than a manifest is: the decoder then says how.
var errNotJSON = errors.New("not JSON")

// skipValue reads the value dec is about to read, at depth nested values,
// checking that the keys of any object in it are given once each.
func skipValue(dec *json.Decoder, depth int) error {
	t, err := dec.Token()
	if err != nil || depth > 8 {
		return errNotJSON
	}
	switch t {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return errNotJSON
			}
			key, _ := k.(string)
			if seen[key] {
				return fmt.Errorf("key %q given twice", key)
			}
			seen[key] = true
			if err := skipValue(dec, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	case json.Delim('['):
		for dec.More() {
			if err := skipValue(dec, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	if err != nil {
		return errNotJSON
	}
	return nil
}

func containsExact(keys []string, key string) bool {
	for _, k := range keys {
		if k == key {
			return true
		}
	}
	return false
}
