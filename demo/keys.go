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

// makeKeys writes the MAIN PC's and each RX node's throw-away ed25519
// keys and the allowed-signers files, in OpenSSH's own formats so that
// git's ssh-keygen signs with them and checks them (PROTOCOL#trust): no
// agent, no passphrase.
func (sb *Sandbox) makeKeys() error {
	if err := os.Mkdir(sb.Keys, 0o700); err != nil {
		return err
	}
	sb.MainKey, sb.TaskSigners = filepath.Join(sb.Keys, "main"), filepath.Join(sb.Keys, "task_signers")
	if err := writeKey(sb.MainKey, "main@demo", sb.TaskSigners); err != nil {
		return err
	}
	// MAIN trusts each node's results only signed by that node's key
	// (PROTOCOL#several-nodes).
	for _, n := range sb.nodes {
		n.Key, n.Signers = filepath.Join(sb.Keys, n.Base), filepath.Join(sb.Keys, n.Base+".allowed")
		if !sb.multi() {
			n.Signers = filepath.Join(sb.Keys, "result_signers")
		}
		if err := writeKey(n.Key, n.Base+"@demo", n.Signers); err != nil {
			return err
		}
	}
	return nil
}

// writeKey writes a new key, its .pub, and the allowed-signers file
// signers listing only it.
func writeKey(private, principal, signers string) error {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return err
	}
	line := "ssh-ed25519 " + base64.StdEncoding.EncodeToString(publicBlob(pub)) + " " + principal
	if err := os.WriteFile(private, openSSHPrivateKey(pub, priv, principal), 0o600); err != nil {
		return err
	}
	if err := os.WriteFile(private+".pub", []byte(line+"\n"), 0o644); err != nil {
		return err
	}
	who := fmt.Sprintf("# rfhandoff demo: who may sign\n%s namespaces=\"git\" %s\n", principal, line)
	return os.WriteFile(signers, []byte(who), 0o600)
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
// (OpenSSH's PROTOCOL.key) holding one ed25519 key, PEM-encoded.
func openSSHPrivateKey(pub ed25519.PublicKey, priv ed25519.PrivateKey, comment string) []byte {
	var check [4]byte
	rand.Read(check[:])                  // never fails (crypto/rand)
	sec := append(check[:], check[:]...) // the two check words are equal when decrypted
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
	return pem.EncodeToMemory(&pem.Block{Type: "OPENSSH PRIVATE KEY", Bytes: b})
}
