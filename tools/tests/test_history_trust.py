#!/usr/bin/env python3
"""Tests of --history DB (SQLite) beside another user: the history path gets -o's checks and more. No link
followed (in the path's last part at all; above it, none that sits in a directory others can write to), no
file another user owns or may write (mode bits or a POSIX ACL), the journal and write-ahead log beside it
likewise, no directory others could replace it in. The other user is a uid without a user (setpriv, as the
trust tests of tests/*.cmake); skipped, with the reason, when not run as root or without setpriv.
"""

import os
import shutil
import sqlite3
import stat
import subprocess
import tempfile
import unittest

import history_support as hs
from support import fixture, main

OTHER = 12345


def as_other(*command):
    """Runs `command` as the other user (uid and gid OTHER, no supplementary groups)."""
    subprocess.run(["setpriv", f"--reuid={OTHER}", f"--regid={OTHER}", "--clear-groups", *command], check=True,
                   capture_output=True)


@unittest.skipUnless(hasattr(os, "geteuid") and os.geteuid() == 0, "run as root (it acts as a second user too)")
@unittest.skipUnless(shutil.which("setpriv"), "no setpriv (util-linux) to act as a second user")
class TrustTest(unittest.TestCase):

    def setUp(self):
        self.base = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.base)
        os.chmod(self.base, 0o755)
        self.sticky = os.path.join(self.base, "shared")  # as /tmp: everyone writes, sticky
        os.mkdir(self.sticky)
        os.chmod(self.sticky, 0o1777)
        self.private = os.path.join(self.base, "private")  # root's own
        os.mkdir(self.private, 0o700)
        self.victim = os.path.join(self.private, "victim.db")

    def refused(self, db, message, *extra):
        """--add and the listing: exit status 2, one line naming `message`; the victim never created."""
        for args in (["--history", db, "--add", "--label", "c1", fixture("gcc.json")], ["--history", db]):
            with self.subTest(args=args):
                status, out, err = hs.run_tool(*args, *extra)
                self.assertEqual((status, out, err.count("\n")), (2, "", 1), err)
                self.assertIn(message, err)
        self.assertFalse(os.path.exists(self.victim))

    def test_a_link_planted_in_a_sticky_directory(self):
        db = os.path.join(self.sticky, "history.sqlite")
        as_other("ln", "-s", self.victim, db)
        self.refused(db, "is a symbolic link: not followed")
        self.assertTrue(os.path.islink(db))

    def test_a_link_of_ones_own_is_not_followed_either(self):
        db = os.path.join(self.private, "link.sqlite")
        os.symlink(self.victim, db)
        self.refused(db, "is a symbolic link: not followed")

    def test_a_directory_link_planted_in_a_sticky_directory(self):
        link = os.path.join(self.sticky, "dir")
        as_other("ln", "-s", self.private, link)
        self.refused(os.path.join(link, "victim.db"), "is a symbolic link in a directory others can write to")

    def test_a_file_of_another_user(self):
        db = os.path.join(self.sticky, "theirs.sqlite")
        as_other("cp", fixture("history-v1.sqlite"), db)
        before = hs.file_bytes(db)
        self.refused(db, f"belongs to another user (uid {OTHER})")
        self.assertEqual(hs.file_bytes(db), before)
        self.assertEqual(os.listdir(self.sticky), ["theirs.sqlite"])  # no journal of ours beside it

    def test_a_file_others_may_write(self):
        db = os.path.join(self.private, "history.sqlite")
        shutil.copy(fixture("history-v1.sqlite"), db)
        os.chmod(self.private, 0o755)
        os.chmod(db, 0o666)
        self.refused(db, "may be written by other users (mode 0666")
        if shutil.which("setfacl"):
            os.chmod(db, 0o644)
            acl = subprocess.run(["setfacl", "-m", f"u:{OTHER}:rw", db], capture_output=True)
            if acl.returncode == 0:  # (a file system without ACLs refuses it)
                self.refused(db, f"its ACL lets user {OTHER} write it")

    def test_a_journal_or_log_planted_beside_it(self):
        db = os.path.join(self.sticky, "history.sqlite")
        status, out, err = hs.run_tool("--history", db, "--add", "--label", "c1", fixture("gcc.json"))
        self.assertEqual((status, err), (0, ""))
        # The journal of a history in a shared directory is created by its owner and kept (journal_mode
        # TRUNCATE): empty between additions, its name never free for another user.
        journal = db + "-journal"
        st = os.lstat(journal)
        self.assertEqual((stat.S_ISREG(st.st_mode), st.st_uid, st.st_size), (True, 0, 0))
        os.unlink(journal)  # (as if an older version had left none)
        as_other("ln", "-s", self.victim, journal)
        self.refused(db, "the file history.sqlite-journal beside it is a symbolic link: not followed")
        os.unlink(journal)
        as_other("touch", db + "-wal")
        self.refused(db, f"the file history.sqlite-wal beside it belongs to another user (uid {OTHER})")
        os.unlink(db + "-wal")
        status, out, err = hs.run_tool("--history", db, "--add", "--label", "c2", fixture("clang.json"))
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(os.lstat(journal).st_uid, 0)

    def test_a_directory_others_may_replace_it_in(self):
        open_dir = os.path.join(self.base, "open")  # everyone writes, not sticky: anyone may rename the history
        os.mkdir(open_dir)
        os.chmod(open_dir, 0o777)
        self.refused(os.path.join(open_dir, "history.sqlite"), "others can write to it and it is not sticky")
        theirs = os.path.join(self.base, "theirs")
        os.mkdir(theirs)
        os.chown(theirs, OTHER, OTHER)
        self.refused(os.path.join(theirs, "history.sqlite"), f"belongs to another user (uid {OTHER})")
        self.assertEqual(os.listdir(open_dir) + os.listdir(theirs), [])

    def test_a_history_of_ones_own_in_a_sticky_directory(self):
        db = os.path.join(self.sticky, "history.sqlite")
        for label, name in (("c1", "gcc.json"), ("c2", "clang.json")):
            status, out, err = hs.run_tool("--history", db, "--add", "--label", label, fixture(name))
            self.assertEqual((status, err), (0, ""))
        status, out, err = hs.run_tool("--history", db)
        self.assertEqual((status, err), (0, ""))
        self.assertIn("2 runs in 2 series", out)
        self.assertEqual(stat.S_IMODE(os.stat(db).st_mode) & 0o022, 0)
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            self.assertEqual(conn.execute("SELECT count(*) FROM iobench_runs").fetchone(), (2,))


if __name__ == "__main__":
    main()
