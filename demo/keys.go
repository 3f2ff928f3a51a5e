package demo

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
)

// demoKey is a throw-away ed25519 key of one side, written into the
// sandbox in OpenSSH's own formats so that git's ssh-keygen signs with it
// and checks it (PROTOCOL#trust): no agent, no passphrase, removed with the
// sandbox.
type demoKey struct {
	Principal string // its name in the other side's allowed-signers file
	Private   string // the private key file (0600)
	Line      string // the public key line
}

// makeKeys writes the MAIN PC's and each RX node's keys and the
// allowed-signers files: the RX side trusts tasks signed by MAIN's key,
// the MAIN side trusts each node's results signed by that node's key.
func (sb *Sandbox) makeKeys() error {
	if err := os.Mkdir(sb.Keys, 0o700); err != nil {
		return err
	}
	main, err := writeKey(sb.Keys, "main", "main@demo")
	if err != nil {
		return err
	}
	sb.MainKey = main.Private
	sb.TaskSigners = filepath.Join(sb.Keys, "task_signers")
	if err := writeSigners(sb.TaskSigners, main); err != nil {
		return err
	}
	// Each node its own key, and MAIN trusts each node's results only
	// when signed by that node's key (several nodes: one allowed-signers
	// file per node, PROTOCOL#several-nodes).
	for _, n := range sb.nodes {
		k, err := writeKey(sb.Keys, n.keyName(), n.principal())
		if err != nil {
			return err
		}
		n.Key, n.Signers = k.Private, filepath.Join(sb.Keys, n.keyName()+".allowed")
		if !sb.multi() {
			sb.RXKey, sb.ResultSigners = k.Private, filepath.Join(sb.Keys, "result_signers")
			n.Signers = sb.ResultSigners
		}
		if err := writeSigners(n.Signers, k); err != nil {
			return err
		}
	}
	return nil
}

// writeSigners writes an allowed-signers file listing only k.
func writeSigners(path string, k demoKey) error {
	line := fmt.Sprintf("# rfhandoff demo: who may sign\n%s namespaces=\"git\" %s\n", k.Principal, k.Line)
	return os.WriteFile(path, []byte(line), 0o600)
}

func writeKey(dir, name, principal string) (demoKey, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return demoKey{}, err
	}
	k := demoKey{Principal: principal, Private: filepath.Join(dir, name),
		Line: "ssh-ed25519 " + base64.StdEncoding.EncodeToString(publicBlob(pub)) + " " + principal}
	block, err := openSSHPrivateKey(pub, priv, principal)
	if err != nil {
		return demoKey{}, err
	}
	if err := os.WriteFile(k.Private, pem.EncodeToMemory(block), 0o600); err != nil {
		return demoKey{}, err
	}
	if err := os.WriteFile(k.Private+".pub", []byte(k.Line+"\n"), 0o644); err != nil {
		return demoKey{}, err
	}
	return k, nil
}

// sshString appends an SSH wire-format string (uint32 length, bytes).
func sshString(b, s []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func publicBlob(pub ed25519.PublicKey) []byte {
	return sshString(sshString(nil, []byte("ssh-ed25519")), pub)
}

// openSSHPrivateKey is the unencrypted "openssh-key-v1" container
// (OpenSSH's PROTOCOL.key) holding one ed25519 key.
func openSSHPrivateKey(pub ed25519.PublicKey, priv ed25519.PrivateKey, comment string) (*pem.Block, error) {
	var check [4]byte
	if _, err := rand.Read(check[:]); err != nil {
		return nil, err
	}
	var sec []byte
	sec = append(sec, check[:]...)
	sec = append(sec, check[:]...) // the two check words are equal when decrypted
	sec = sshString(sec, []byte("ssh-ed25519"))
	sec = sshString(sec, pub)
	sec = sshString(sec, priv) // seed and public key, 64 bytes
	sec = sshString(sec, []byte(comment))
	for i := byte(1); len(sec)%8 != 0; i++ {
		sec = append(sec, i)
	}
	b := []byte("openssh-key-v1\x00")
	b = sshString(b, []byte("none")) // cipher
	b = sshString(b, []byte("none")) // kdf
	b = sshString(b, nil)            // kdf options
	b = binary.BigEndian.AppendUint32(b, 1)
	b = sshString(b, publicBlob(pub))
	b = sshString(b, sec)
	return &pem.Block{Type: "OPENSSH PRIVATE KEY", Bytes: b}, nil
}
