package private

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The ownership check reads the owner and the DACL of the handle opened.
// The directories above are not judged: judging DELETE and
// FILE_DELETE_CHILD over a whole path (C:\ lets every user add folders)
// was not tested on a real Windows; OPERATIONS#threat-model keeps the
// state directory under the user's profile instead.

// fileDeleteChild lets its holder delete or rename anything in a directory.
const fileDeleteChild = 0x40

// writeRights let their holder change an object or take it over.
const writeRights = windows.FILE_WRITE_DATA | windows.FILE_APPEND_DATA | windows.FILE_WRITE_EA |
	windows.FILE_WRITE_ATTRIBUTES | fileDeleteChild | windows.DELETE | windows.WRITE_DAC | windows.WRITE_OWNER |
	windows.GENERIC_WRITE | windows.GENERIC_ALL

// openNoFollow opens path for its security, refusing a link or junction.
func openNoFollow(path string, dir bool) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	flags := uint32(windows.FILE_FLAG_OPEN_REPARSE_POINT)
	if dir {
		flags |= windows.FILE_FLAG_BACKUP_SEMANTICS
	}
	h, err := windows.CreateFile(p, windows.READ_CONTROL|windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, flags, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		windows.CloseHandle(h)
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		windows.CloseHandle(h)
		return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("a symlink or junction: rfhandoff never follows a link here; put the directory or file itself in its place")}
	}
	return os.NewFile(uintptr(h), path), nil
}

// mkdirOwn: an access list protected from inheritance, which what is
// created in dir inherits: Windows' 0700.
func mkdirOwn(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	user, err := currentUser()
	if err != nil {
		return err
	}
	sd, err := windows.SecurityDescriptorFromString("D:P(A;OICI;FA;;;" + user.String() + ")(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)")
	if err != nil {
		return fmt.Errorf("%s: building its access list: %w", dir, err)
	}
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return err
	}
	sa := &windows.SecurityAttributes{Length: uint32(unsafe.Sizeof(windows.SecurityAttributes{})), SecurityDescriptor: sd}
	if err := windows.CreateDirectory(p, sa); err != nil {
		if errors.Is(err, windows.ERROR_ALREADY_EXISTS) {
			return fs.ErrExist
		}
		return &os.PathError{Op: "mkdir", Path: dir, Err: err}
	}
	return nil
}

func judgeOpened(path string, f *os.File, st fs.FileInfo) []error {
	sd, err := windows.GetSecurityInfo(windows.Handle(f.Fd()), windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return []error{fmt.Errorf("reading its owner and access list: %w", err)}
	}
	user, err := currentUser()
	if err != nil {
		return []error{err}
	}
	var problems []error
	fix := fmt.Sprintf(`icacls "%s" /inheritance:r /grant:r "%%USERNAME%%:F" /grant:r "SYSTEM:F" /grant:r "Administrators:F"`, path)
	if st.IsDir() {
		fix = fmt.Sprintf(`icacls "%s" /inheritance:r /grant:r "%%USERNAME%%:(OI)(CI)F" /grant:r "SYSTEM:(OI)(CI)F" /grant:r "Administrators:(OI)(CI)F"`, path)
	}
	owner, _, err := sd.Owner()
	switch {
	case err != nil:
		problems = append(problems, fmt.Errorf("reading its owner: %w", err))
	case owner == nil || !trusted(owner, user):
		problems = append(problems, fmt.Errorf("owned by %s, not by you (%s): another account made or replaced it, so what it holds cannot be trusted; "+
			"look at it, then remove it — or, if you vouch for it, `takeown /f \"%s\"`", sidName(owner), sidName(user), path))
	}
	dacl, _, err := sd.DACL()
	switch {
	case err != nil:
		problems = append(problems, fmt.Errorf("reading its access list: %w", err))
	case dacl == nil:
		problems = append(problems, fmt.Errorf("has no access list, so every account may change it; `%s`", fix))
	default:
		for i := range uint32(dacl.AceCount) {
			var ace *windows.ACCESS_ALLOWED_ACE
			if err := windows.GetAce(dacl, i, &ace); err != nil {
				problems = append(problems, fmt.Errorf("reading its access list: %w", err))
				break
			}
			if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || ace.Header.AceFlags&windows.INHERIT_ONLY_ACE != 0 {
				continue // a deny entry takes rights away; an inherit-only one is for what is created inside
			}
			sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
			if trusted(sid, user) || ace.Mask&writeRights == 0 {
				continue
			}
			problems = append(problems, fmt.Errorf("%s may change it (access mask %#x): another account could change or replace it; `%s`", sidName(sid), uint32(ace.Mask), fix))
		}
	}
	return problems
}

func judgeAbove(string) []error { return nil }

func currentUser() (*windows.SID, error) {
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("this account's SID: %w", err)
	}
	return tu.User.Sid, nil
}

// trusted: who can change anything anyway (OWNER RIGHTS too).
func trusted(sid, user *windows.SID) bool {
	return sid.Equals(user) || sid.IsWellKnown(windows.WinLocalSystemSid) ||
		sid.IsWellKnown(windows.WinBuiltinAdministratorsSid) || sid.IsWellKnown(windows.WinCreatorOwnerRightsSid)
}

func sidName(sid *windows.SID) string {
	if sid == nil {
		return "nobody"
	}
	if account, domain, _, err := sid.LookupAccount(""); err == nil {
		if domain != "" {
			account = domain + `\` + account
		}
		return fmt.Sprintf("%s (%s)", account, sid.String())
	}
	return sid.String()
}
