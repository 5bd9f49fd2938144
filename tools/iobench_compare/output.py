"""Writing an output file (-o, the --plot charts) where others may have been first.

A directory that others can write to (/tmp, a shared sticky directory) may hold
links, FIFOs and files planted by another user (docs/reliability.md, guarantee
10). So a file is never written through a link found there, never opened when it
is not a regular file that is ours, and a regular file is replaced in one step
(a temporary file next to it, flushed, renamed over the name: the rename replaces
whatever holds the name then, a link included, and follows nothing), keeping the
mode of the file it replaces.
"""

from __future__ import annotations

import os
import stat
import tempfile


class Refused(Exception):
    """The output was not written because of what its path names (bad input: exit status 2)."""


def _euid() -> int | None:
    return os.geteuid() if hasattr(os, "geteuid") else None


def shared(directory: str) -> bool:
    """True when someone other than this user (or root) can create or replace
    entries in `directory`: it is writable by its group or by others, or it
    belongs to another user. False on systems without user ids (Windows)."""
    euid = _euid()
    if euid is None:
        return False
    st = os.stat(directory)
    return bool(st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)) or st.st_uid not in (euid, 0)


def _kind(mode: int) -> str:
    for test, what in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "not a regular file"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_directory(path: str) -> None:
    """Refuses `path` as a directory to write into (--plot DIR) when it is a
    symbolic link in a directory others can write to."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode) and shared(os.path.dirname(os.path.abspath(path))):
        raise Refused(f"{path}: is a symbolic link in a directory others can write to: not followed "
                      "(remove it, or name another directory)")


def check_file(path: str) -> None:
    """Raises Refused when write_file(path, ...) would refuse `path`; writes nothing."""
    write_file(path, None)


def write_file(path: str, data: bytes | None, _depth: int = 0) -> None:
    """Writes `data` to `path`.

    - Absent or a regular file: a temporary file in the same directory is
      written, flushed to the device and renamed to `path` in one step; an
      existing file's mode is kept (a new file gets 0644 less the umask). An
      earlier file survives a full disk whole.
    - A symbolic link: refused in a directory others can write to (see shared());
      elsewhere (a link of one's own) what it names is written by these rules.
    - A FIFO or device: written through, never replaced (/dev/null, a pipe),
      unless it belongs to another user in a directory others can write to:
      refused without opening it.
    - A regular file of another user in such a directory: refused (left alone).

    Raises Refused for what is refused (nothing written) and OSError when
    writing fails (an earlier file left whole, no temporary file left). With
    `data` None, only checks (check_file).
    """
    directory = os.path.dirname(path) or "."
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    euid = _euid()
    if st is not None and stat.S_ISLNK(st.st_mode):
        if shared(directory):
            raise Refused(f"{path}: is a symbolic link in a directory others can write to: not followed "
                          "(remove it, or name another file)")
        try:
            followed = os.stat(path)
        except FileNotFoundError:
            followed = None
        if followed is not None and not stat.S_ISREG(followed.st_mode) and not stat.S_ISDIR(followed.st_mode):
            if data is not None:  # /dev/stdout, a link to a FIFO of one's own
                _write_through(path, data, follow=True)
            return
        if _depth > 0:  # resolved once already: it changed under us
            raise Refused(f"{path}: is a symbolic link that changed while it was resolved: not followed")
        write_file(os.path.realpath(path), data, _depth + 1)
        return
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise Refused(f"{path}: is a directory")
    others = euid is not None and st is not None and st.st_uid != euid
    if st is not None and not stat.S_ISREG(st.st_mode):
        if others and shared(directory):
            raise Refused(f"{path}: is {_kind(st.st_mode)} of another user (uid {st.st_uid}) in a directory "
                          "others can write to: not opened")
        if data is not None:
            _write_through(path, data, follow=False)
        return
    if others and shared(directory):
        raise Refused(f"{path}: belongs to another user (uid {st.st_uid}) in a directory others can write to: "
                      "left alone")
    if data is None:
        return
    mode = stat.S_IMODE(st.st_mode) & 0o777 if st is not None else 0o644 & ~_umask()
    fd, temp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".partial", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), mode)
            else:
                os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def _write_through(path: str, data: bytes, follow: bool) -> None:
    """Writes into an existing FIFO or device without replacing it. (Not
    O_CREAT: a name that became a regular file meanwhile is not truncated;
    it is refused.)"""
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "wb") as f:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            raise Refused(f"{path}: became a regular file while it was opened: not written")
        f.write(data)
