"""The history of benchmark runs: result files kept in a database, SQLite or PostgreSQL.

`iobench-compare --history DB --add FILE...` adds result files to a history; each file
becomes a run, identified by the SHA-256 of its bytes (adding it again adds nothing),
labelled by the user's project commit (--label; default `git describe --always --dirty` in the
git repository of the current directory, unless that is iobench's own checkout: then --label
is required) and described by its context: iobench's version and commit, compiler, build type,
machine (host, CPU model, kernel, OS), suite and scale, how instructions were counted
(--instructions), the run's date and the file's name. Per benchmark a run keeps its
status, median time per run (seconds), the 95 % interval of that median, instructions per
item where counted, the repetitions that ran, a per-call row's p50, p99 and p99.9 and the
throughput (schema version 2): each summarised by compare.summarize
from the file as results.load reads it, so files of older iobench versions go through the
same fallback as the tables.

One code path through SQLAlchemy Core for both databases: DB is a path or sqlite:///PATH
(SQLite: Python's sqlite3, a file, no server) or postgresql://USER@HOST/NAME (through
psycopg2), so that many CI runners can add to one history. Writers take the database's
write lock for the whole addition (SQLite: BEGIN IMMEDIATE; PostgreSQL: a transaction-level
advisory lock), so two writers adding at once lose nothing and add no run twice; the
UNIQUE SHA-256 is the last guard.

A database is used only when it is empty (a new history) or holds this schema (table
iobench_schema, version SCHEMA_VERSION) or version 1, which is upgraded in place in one
transaction (upgrade()): a file that is not an SQLite database, a database with other tables,
a later schema version or damaged tables is refused with one line and left as it is, never
rebuilt. Reading (listing, the report) opens SQLite read-only. An SQLite history is checked
before SQLite opens it as -o's output is, and more strictly (_check_sqlite_file): no link, no
file another user owns or may write, no such journal beside it, no directory others could
replace it in; what SQLite then holds open must be the file checked (_check_identity).
"""

from __future__ import annotations

import hashlib
import math
import json
import os
import sqlite3
import stat
import subprocess
from dataclasses import dataclass, field
from datetime import datetime, timezone
from urllib.parse import quote

import sqlalchemy
from sqlalchemy import (Column, Float, ForeignKey, Integer, MetaData, PrimaryKeyConstraint, Table, Text, event,
                        insert, inspect, select, update)
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.pool import NullPool

from .compare import median_interval, summarize
from .results import InputError, ResultFile

# The version of the tables below. A history of version 1 is upgraded in place (upgrade()); a later version
# (a newer iobench-compare's) is refused, not converted.
SCHEMA_VERSION = 2

# How long a writer waits for another one's write lock (SQLite's busy timeout), seconds.
LOCK_WAIT_SECONDS = 60

# A label (the project's commit) is shown in tables and commit ranges "a..b": one line, this long at most.
MAX_LABEL = 200

# The key of PostgreSQL's advisory lock that writers of a history take (any constant; "iobench" in ASCII).
_ADVISORY_LOCK = 0x696F62656E6368

_SQLITE_HEADER = b"SQLite format 3\x00"

metadata = MetaData()

schema = Table("iobench_schema", metadata, Column("version", Integer, nullable=False))

runs = Table(
    "iobench_runs", metadata,
    Column("id", Integer, primary_key=True),
    Column("sha256", Text, nullable=False, unique=True),  # of the result file's bytes: the run's identity
    Column("label", Text, nullable=False),  # the project's commit (--label)
    Column("run_at", Text, nullable=False),  # the run's date in UTC, ISO 8601 (the order of a series)
    Column("added_at", Text, nullable=False),  # when it was added, UTC, ISO 8601
    Column("file_name", Text, nullable=False),  # without its directory
    Column("iobench_version", Text), Column("iobench_commit", Text),
    Column("compiler", Text), Column("build_type", Text),
    Column("host", Text), Column("cpu_model", Text), Column("kernel", Text), Column("os", Text),
    Column("suite", Text), Column("scale", Text),
    Column("instructions_source", Text),  # perf or valgrind (iobench --instructions; valgrind's times are ~50x)
    Column("context", Text, nullable=False),  # the file's whole context, as JSON
)

results = Table(
    "iobench_results", metadata,
    Column("run_id", Integer, ForeignKey("iobench_runs.id", ondelete="CASCADE"), nullable=False),
    Column("benchmark", Text, nullable=False),
    Column("status", Text, nullable=False),  # ok, failed, skipped, invalid
    Column("error", Text),  # why, for the other three
    Column("median_s", Float),  # median wall time of a run, seconds
    Column("ci_low_s", Float), Column("ci_high_s", Float),  # its 95 % interval (6 repetitions or more)
    Column("instructions_per_item", Float),  # iobench --instructions
    Column("repetitions", Integer),  # how many ran
    # Schema version 2: a per-call row's latency percentiles (seconds per call: the median over the repetitions
    # of latency_p50_ns, latency_p99_ns, latency_p999_ns / 1e9) and the throughput (the median over the
    # repetitions of bytes_per_second and items_per_second). None where the file has no such figure.
    Column("p50_s", Float), Column("p99_s", Float), Column("p999_s", Float),
    Column("bytes_per_second", Float), Column("items_per_second", Float),
    PrimaryKeyConstraint("run_id", "benchmark"),
)

# The columns of iobench_results that schema version 2 added (a version-1 history gains them, empty, when it is
# upgraded: its runs' files are not kept, so their figures cannot be filled in).
ADDED_IN_2 = ("p50_s", "p99_s", "p999_s", "bytes_per_second", "items_per_second")

# A version's columns of each table (the check of a history's tables).
_COLUMNS = {1: {runs.name: [c.name for c in runs.columns],
                "iobench_results": [c.name for c in results.columns if c.name not in ADDED_IN_2]},
            2: {runs.name: [c.name for c in runs.columns], "iobench_results": [c.name for c in results.columns]}}

# The counters of a row that schema version 2 keeps: column -> (counter, factor to the column's unit).
_FIGURES = {"p50_s": ("latency_p50_ns", 1e-9), "p99_s": ("latency_p99_ns", 1e-9), "p999_s": ("latency_p999_ns", 1e-9),
            "bytes_per_second": ("bytes_per_second", 1.0), "items_per_second": ("items_per_second", 1.0)}

# The context fields a run keeps in columns of its own: column -> context key.
_CONTEXT_COLUMNS = {"iobench_version": "iobench_version", "iobench_commit": "iobench_git_commit",
                    "compiler": "compiler", "build_type": "build_type", "host": "host_name",
                    "cpu_model": "cpu_model", "kernel": "kernel", "os": "os", "suite": "suite", "scale": "scale",
                    "instructions_source": "instructions_source"}


class NotWritten(Exception):
    """The history could not be written (a writer held its lock too long, the server went away): exit status 1."""


@dataclass(frozen=True)
class Database:
    """Where a history is: its SQLAlchemy URL, and the text to name it by (no password)."""

    url: sqlalchemy.engine.URL
    shown: str
    path: str | None  # the file of an SQLite history

    @property
    def backend(self) -> str:
        """The database's kind as a user names it: "SQLite" or "PostgreSQL"."""
        return "SQLite" if self.path is not None else "PostgreSQL"


def database(text: str) -> Database:
    """The history named by --history: a path or sqlite:///PATH (SQLite), or postgresql://... (PostgreSQL,
    with any of SQLAlchemy's PostgreSQL drivers that is installed; psycopg2 by default). Raises InputError
    for anything else."""
    if not text.strip():
        raise InputError("--history: no database given (a file, sqlite:///PATH or postgresql://...)")
    if "://" not in text:
        return Database(sqlalchemy.engine.URL.create("sqlite", database=text), text, text)
    try:
        url = sqlalchemy.engine.make_url(text)
    except ArgumentError:
        raise InputError(f"--history {text}: not a database URL (sqlite:///PATH or postgresql://...)") from None
    shown = url.render_as_string(hide_password=True)
    backend = url.get_backend_name()
    if backend == "sqlite":
        if not url.database or url.database == ":memory:":
            raise InputError(f"--history {shown}: an in-memory database keeps nothing: name a file (sqlite:///PATH)")
        return Database(url, shown, url.database)
    if backend != "postgresql":
        raise InputError(f"--history {shown}: a history is kept in SQLite (a file, sqlite:///PATH) or PostgreSQL "
                         "(postgresql://...), not in " + backend)
    return Database(url, shown, None)


@dataclass(frozen=True)
class _Checked:
    """An SQLite history's file as _check_sqlite_file found it: the path SQLite is given (its directory
    resolved, the file's own name not), its device and inode, and whether its directory is shared (others may
    create names in it: a sticky directory such as /tmp)."""

    path: str
    device: int
    inode: int
    shared: bool


# The checked file of each SQLite history used by this process (by the path as given).
_checked: dict[str, _Checked] = {}

# The files SQLite keeps beside a database (rollback journal; write-ahead log and its index).
_SIDE_FILES = ("-journal", "-wal", "-shm")


def _writable_by_others(path: str, st: os.stat_result) -> str | None:
    """Why users other than its owner may write the file `st` (its mode bits, or a POSIX ACL entry of a named
    user or group with write permission), or None."""
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"mode {stat.S_IMODE(st.st_mode):04o}: writable by its group or others"
    try:
        acl = os.getxattr(path, "system.posix_acl_access", follow_symlinks=False)
    except (AttributeError, OSError):
        return None  # no ACL (or none this system keeps)
    # Linux's xattr ACL: a 4-byte version, then entries of (tag u16, permissions u16, id u32), little-endian.
    entries = [(int.from_bytes(acl[i:i + 2], "little"), int.from_bytes(acl[i + 2:i + 4], "little"),
                int.from_bytes(acl[i + 4:i + 8], "little")) for i in range(4, len(acl) - 7, 8)]
    mask = next((perm for tag, perm, _ in entries if tag == 0x10), 7)
    for tag, perm, who in entries:
        if tag in (0x02, 0x08) and perm & mask & 2:  # ACL_USER, ACL_GROUP with write
            return f"its ACL lets {'user' if tag == 2 else 'group'} {who} write it"
    return None


def _refuse_foreign(db: Database, what: str, path: str, st: os.stat_result, euid: int | None) -> None:
    """Refuses `path` (the history, or a file SQLite keeps beside it) when it is a link, not a regular file,
    belongs to another user or others may write it."""
    if stat.S_ISLNK(st.st_mode):
        raise InputError(f"--history {db.shown}: {what} is a symbolic link: not followed (name the file itself, "
                         "not a link)")
    if stat.S_ISDIR(st.st_mode) and what == "it":
        raise InputError(f"--history {db.shown}: is a directory, not a history")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"--history {db.shown}: {what} is not a regular file: not a history, not opened")
    if euid is None:
        return
    if st.st_uid != euid:
        raise InputError(f"--history {db.shown}: {what} belongs to another user (uid {st.st_uid}): not used "
                         "(a history is kept in a file of one's own; copy it)")
    why = _writable_by_others(path, st)
    if why:
        raise InputError(f"--history {db.shown}: {what} may be written by other users ({why}): not used "
                         "(chmod go-w it)")


def _check_path(db: Database, absolute: str, euid: int | None) -> tuple[str, bool]:
    """(the history's path with its directory resolved, whether that directory is shared). Refuses a path
    through a symbolic link that sits in a directory others can write to (someone else's link), and a
    directory in which others could replace or remove the history (writable by others and not sticky, or
    someone else's)."""
    from .output import shared

    parts = absolute.split(os.sep)
    for i in range(2, len(parts)):
        prefix = os.sep.join(parts[:i]) or os.sep
        try:
            st = os.lstat(prefix)
        except OSError:
            break  # (reported below as no such directory)
        if stat.S_ISLNK(st.st_mode) and shared(os.path.dirname(prefix) or os.sep):
            raise InputError(f"--history {db.shown}: {prefix} is a symbolic link in a directory others can write "
                             "to: not followed")
    directory = os.path.realpath(os.path.dirname(absolute))
    try:
        st = os.stat(directory)
    except OSError:
        st = None
    if st is None or not stat.S_ISDIR(st.st_mode):
        raise InputError(f"--history {db.shown}: no such directory {os.path.dirname(db.path) or '.'}")
    is_shared = shared(directory)
    if is_shared and euid is not None and (not st.st_mode & stat.S_ISVTX or st.st_uid not in (euid, 0)):
        whose = f"belongs to another user (uid {st.st_uid})" if st.st_uid not in (euid, 0) else \
            "others can write to it and it is not sticky"
        raise InputError(f"--history {db.shown}: the directory {directory} {whose}: a history there could be "
                         "replaced under us: not used (name a file in a directory of one's own)")
    return os.path.join(directory, os.path.basename(absolute)), is_shared


def _create(db: Database, name: str, euid: int | None) -> None:
    """Creates the empty file `name` (O_EXCL, O_NOFOLLOW); one that another writer of this user created
    meanwhile is checked instead."""
    try:
        os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644))
    except FileExistsError:
        _refuse_foreign(db, f"the file {os.path.basename(name)}", name, os.lstat(name), euid)
    except OSError as e:
        raise InputError(f"--history {db.shown}: {name} could not be created ({e.strerror or e}): "
                         "nothing added") from None


def _check_sqlite_file(db: Database, create: bool) -> None:
    """Refuses an SQLite history (before anything opens it, so that nothing is written to it) that is not a
    regular SQLite file of this user that only this user may write, whose path goes through another user's
    link, whose directory lets others replace it, that has a journal or write-ahead log beside it that is
    not such a file too, or, when not `create`, that is absent. When `create` and absent, creates the empty
    file itself (O_EXCL, O_NOFOLLOW: SQLite is then never the one to create it, so it cannot create it
    through a link); in a shared (sticky) directory it creates the rollback journal beside it as well, which
    its writers keep (journal_mode TRUNCATE), so that no one else can plant one there. Records the file's
    identity, which _check_identity compares with what SQLite opened."""
    euid = os.geteuid() if hasattr(os, "geteuid") else None
    path, is_shared = _check_path(db, os.path.abspath(db.path), euid)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        if not create:
            raise InputError(f"--history {db.shown}: no such history (add a result file to it first: "
                             "--add FILE.json)") from None
        st = None
    except OSError as e:
        raise InputError(f"--history {db.shown}: {e.strerror or e}") from None
    if st is not None:
        _refuse_foreign(db, "it", path, st, euid)
    for suffix in _SIDE_FILES:
        try:
            side = os.lstat(path + suffix)
        except FileNotFoundError:
            continue
        except OSError as e:
            raise InputError(f"--history {db.shown}: {path + suffix}: {e.strerror or e}") from None
        _refuse_foreign(db, f"the file {os.path.basename(path)}{suffix} beside it", path + suffix, side, euid)
    if create:
        names = [path] if st is None else []
        names += [path + "-journal"] if is_shared and not os.path.lexists(path + "-journal") else []
        for name in names:
            _create(db, name, euid)
        st = os.lstat(path)
        _refuse_foreign(db, "it", path, st, euid)
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, os.O_RDONLY | nofollow | getattr(os, "O_NONBLOCK", 0))
        try:
            opened = os.fstat(fd)
            head = os.read(fd, len(_SQLITE_HEADER))
        finally:
            os.close(fd)
    except OSError as e:
        raise InputError(f"--history {db.shown}: {e.strerror or e}") from None
    if (opened.st_dev, opened.st_ino) != (st.st_dev, st.st_ino):
        raise InputError(f"--history {db.shown}: changed while it was checked: not used")
    if head and head != _SQLITE_HEADER:
        raise InputError(f"--history {db.shown}: not an SQLite database (it does not start as one): not used, "
                         "left as it is")
    _checked[db.path] = _Checked(path, st.st_dev, st.st_ino, is_shared)


def _check_identity(db: Database) -> None:
    """After SQLite opened an SQLite history: refuses it (InputError, in the open transaction, so that nothing is
    written) unless the file SQLite holds open is the one _check_sqlite_file checked, and the name still
    names it. On systems without /proc/self/fd only the name is compared."""
    checked = _checked.get(db.path) if db.path is not None else None
    if checked is None:
        return
    try:
        st = os.lstat(checked.path)
    except OSError:
        st = None
    if st is None or (st.st_dev, st.st_ino) != (checked.device, checked.inode):
        raise InputError(f"--history {db.shown}: was replaced while it was opened: not used")
    if not os.path.isdir("/proc/self/fd"):
        return
    held = False
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{name}") != checked.path:
                continue
            fst = os.fstat(int(name))
        except (OSError, ValueError):
            continue
        if (fst.st_dev, fst.st_ino) != (checked.device, checked.inode):
            raise InputError(f"--history {db.shown}: SQLite opened another file than the one checked: not used")
        held = True
    if not held:
        raise InputError(f"--history {db.shown}: SQLite did not open the file checked (a link?): not used")


def _engine(db: Database, write: bool) -> sqlalchemy.engine.Engine:
    """An engine for the history: SQLite opened read-only unless `write`, a writer's transaction begun
    with BEGIN IMMEDIATE (the write lock at once, waiting up to LOCK_WAIT_SECONDS for another writer's);
    PostgreSQL with a connect timeout. Raises ModuleNotFoundError when the driver is not installed."""
    if db.path is not None:
        checked = _checked.get(db.path)
        path = checked.path if checked is not None else os.path.abspath(db.path)
        uri = "file:" + quote(path) + ("?mode=rw" if write else "?mode=ro")

        def connect():
            connection = sqlite3.connect(uri, uri=True, timeout=LOCK_WAIT_SECONDS, isolation_level=None)
            if write and checked is not None and checked.shared:
                # Keep the journal created beside it (truncated, never deleted): no one else can take its name.
                connection.execute("PRAGMA journal_mode = TRUNCATE")
            return connection
        engine = sqlalchemy.create_engine("sqlite://", creator=connect, poolclass=NullPool, future=True)

        @event.listens_for(engine, "connect")
        def _foreign_keys(dbapi_connection, _record):
            dbapi_connection.execute("PRAGMA foreign_keys = ON")

        # sqlite3 with isolation_level None begins nothing itself: each transaction is begun here, so a
        # writer holds the write lock from its first read on (SQLAlchemy's recipe for pysqlite).
        @event.listens_for(engine, "begin")
        def _begin(conn):
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine
    query = dict(db.url.query)
    connect_args = {} if "connect_timeout" in query else {"connect_timeout": 10}
    return sqlalchemy.create_engine(db.url, poolclass=NullPool, future=True, connect_args=connect_args)


def _one_line(e: Exception) -> str:
    """The first line of a database error's message, without SQLAlchemy's decorations."""
    original = getattr(e, "orig", None) or e
    text = str(original).strip().splitlines()
    return text[0] if text else type(original).__name__


def _check_schema(conn, db: Database, create: bool) -> int:
    """Checks that the database holds an iobench history of this schema or of version 1 (which upgrade()
    converts); in an empty database creates this schema when `create`. Returns the history's schema version,
    0 for an empty database (no history yet). Raises InputError, changing nothing, for a database with other
    tables, a version of a newer iobench-compare or tables that lack their columns."""
    found = set(inspect(conn).get_table_names())
    if not found:
        if create:
            metadata.create_all(conn)
            conn.execute(insert(schema).values(version=SCHEMA_VERSION))
            return SCHEMA_VERSION
        return 0
    if schema.name not in found:
        listed = ", ".join(sorted(found)[:5]) + (", ..." if len(found) > 5 else "")
        raise InputError(f"--history {db.shown}: holds tables that are not an iobench history ({listed}): "
                         "not used, left as it is (name another database)")
    try:
        versions = conn.execute(select(schema.c.version)).scalars().all()
    except DBAPIError as e:
        raise InputError(f"--history {db.shown}: a damaged iobench history ({_one_line(e)}): not used, "
                         "left as it is") from None
    if len(versions) != 1 or versions[0] not in _COLUMNS:
        which = ", ".join(str(v) for v in versions) or "none"
        newer = len(versions) == 1 and isinstance(versions[0], int) and versions[0] > SCHEMA_VERSION
        raise InputError(f"--history {db.shown}: an iobench history of schema version {which}, "
                         + (f"newer than this iobench-compare's ({SCHEMA_VERSION})" if newer else
                            f"not 1 to {SCHEMA_VERSION}") + ": not used, left as it is")
    version = versions[0]
    inspector = inspect(conn)
    for table, wanted in _COLUMNS[version].items():
        have = {c["name"] for c in inspector.get_columns(table)} if table in found else set()
        lacking = [c for c in wanted if c not in have]
        if lacking:
            what = "no table " + table if not have else f"{table} without {', '.join(lacking)}"
            raise InputError(f"--history {db.shown}: a damaged iobench history ({what}): not used, left as it is")
    return version


def _upgrade_tables(conn, version: int) -> None:
    """Converts the tables of a history of schema `version` to SCHEMA_VERSION, in the caller's transaction (all
    of it or, if anything fails or the process ends before the commit, nothing): version 1 gains the columns
    ADDED_IN_2, empty."""
    if version == 1:
        for name in ADDED_IN_2:
            kind = results.c[name].type.compile(dialect=conn.dialect)
            conn.exec_driver_sql(f"ALTER TABLE {results.name} ADD COLUMN {name} {kind}")
    _set_version(conn)


def _set_version(conn) -> None:
    """Records SCHEMA_VERSION as the history's, the upgrade's last step."""
    conn.execute(update(schema).values(version=SCHEMA_VERSION))


def upgrade(db: Database) -> bool:
    """Upgrades a history of an earlier schema version in place, in one transaction under the writers' lock
    (interrupted, the history stays as it was). Returns True when it upgraded, False when there was nothing to
    do (an empty database, or this version already). Raises InputError for a database that is not a history,
    NotWritten when it could not be written."""
    try:
        engine = _engine(db, write=True)
        try:
            with engine.begin() as conn:
                _lock(conn)
                _check_identity(db)
                version = _check_schema(conn, db, create=False)
                if version in (0, SCHEMA_VERSION):
                    return False
                _upgrade_tables(conn, version)
                return True
        finally:
            engine.dispose()
    except NoSuchModuleError as e:
        raise InputError(f"--history {db.shown}: {e}") from None
    except SQLAlchemyError as e:
        raise _database_error(db, e) from None


def _lock(conn) -> None:
    """Takes the writers' lock for this transaction: SQLite's comes with BEGIN IMMEDIATE; PostgreSQL's is an
    advisory lock held until the transaction ends."""
    if conn.dialect.name == "postgresql":
        conn.execute(sqlalchemy.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _ADVISORY_LOCK})


def _utc(text) -> str | None:
    """An ISO 8601 date as UTC "YYYY-MM-DDTHH:MM:SS+00:00" (a date without a zone is taken as UTC), or None."""
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        when = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.astimezone(timezone.utc).isoformat(timespec="seconds")


def check_label(label: str) -> str:
    """The label as given, or InputError when it is empty, longer than MAX_LABEL, has a control character,
    or holds ".." (which separates the two ends of a commit range)."""
    if not label.strip():
        raise InputError("--label: empty: give the project's commit (or leave --label out for git describe)")
    if len(label) > MAX_LABEL:
        raise InputError(f"--label: {len(label)} characters, more than {MAX_LABEL}")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in label):
        raise InputError(f"--label {label!r}: has a control character (a line break?)")
    if ".." in label:
        raise InputError(f"--label {label}: holds '..', which writes a commit range")
    return label


def _git(args: list[str], directory: str | None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], cwd=directory, capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise InputError(f"--label: not given, and git could not run ({e}): give --label COMMIT") from None


def is_iobench_checkout(top: str) -> bool:
    """True when the git work tree `top` is iobench's own source (the one this package runs from, or any
    checkout holding iobench's tool and engine): its commit is iobench's, not a project's."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        if os.path.samefile(top, here):
            return True
    except OSError:
        pass
    return (os.path.isfile(os.path.join(top, "tools", "iobench_compare", "history.py"))
            and os.path.isdir(os.path.join(top, "core", "engine")))


def default_label(directory: str | None = None) -> str:
    """The label of runs added without --label: the commit of the user's project, `git describe --always
    --dirty` in the git repository of `directory` (the current one). Raises InputError (give --label) when
    git is missing, the directory is in no git repository, or that repository is iobench's own checkout (its
    commit is iobench's, not the project's)."""
    top = _git(["rev-parse", "--show-toplevel"], directory)
    if top.returncode != 0:
        raise InputError("--label: not given, and the current directory is in no git repository: give --label "
                         "COMMIT (your project's commit)")
    if is_iobench_checkout(top.stdout.strip()):
        raise InputError(f"--label: not given, and the current directory is in iobench's own checkout "
                         f"({top.stdout.strip()}), whose commit is not your project's: give --label COMMIT, or "
                         "add from your project's repository")
    done = _git(["describe", "--always", "--dirty"], directory)
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or ["failed"])[0]
        raise InputError(f"--label: not given, and `git describe --always --dirty` failed here ({why}): "
                         "give --label COMMIT")
    return check_label(done.stdout.strip())


@dataclass
class NewRun:
    """A result file ready to be added: its identity, its run's columns and its benchmarks' rows."""

    file: ResultFile
    sha256: str
    run: dict
    rows: list[dict]


def _row(name: str, bench) -> dict:
    """A benchmark's row: its status and, with a result, the median time, its interval (the file's own, else
    the distribution-free one of the repetitions), instructions per item and repetitions."""
    cell = summarize(bench)
    row = {"benchmark": name, "status": cell.status, "error": cell.error, "median_s": None, "ci_low_s": None,
           "ci_high_s": None, "instructions_per_item": None,
           "repetitions": len(bench.real_times) or (bench.repetitions or None)}
    if cell.ok:
        interval = cell.time_ci or median_interval(cell.samples)
        row["median_s"] = cell.time
        if interval is not None:
            row["ci_low_s"], row["ci_high_s"] = interval
        instructions = cell.counters.get("instructions_per_item")
        if instructions is not None and instructions > 0:
            row["instructions_per_item"] = instructions
    for column, (counter, factor) in _FIGURES.items():
        value = cell.counters.get(counter) if cell.ok else None
        row[column] = value * factor if value is not None and math.isfinite(value) and value > 0 else None
    return row


def prepare(file: ResultFile, data: bytes, label: str, now: str | None = None) -> NewRun:
    """A result file (as results.load read it, and its bytes) as a run labelled `label`."""
    context = file.context
    added = now or datetime.now(timezone.utc).isoformat(timespec="seconds")
    run = {"label": label, "run_at": _utc(context.get("date")) or added, "added_at": added,
           "file_name": file.name, "context": json.dumps(context, sort_keys=True)}
    for column, key in _CONTEXT_COLUMNS.items():
        value = context.get(key)
        run[column] = None if value in (None, "") else str(value)
    rows = [_row(name, bench) for name, bench in file.benchmarks.items()]
    return NewRun(file, hashlib.sha256(data).hexdigest(), run, rows)


@dataclass
class Added:
    """What adding one file did: the run it is (new, or the one that was there) and its label."""

    file: str
    run_id: int
    label: str
    new: bool


def _database_error(db: Database, e: Exception) -> Exception:
    """A database error as one line: InputError (exit status 2) for a database that cannot be used
    (not a database, damaged, unreachable, refused), NotWritten (1) when a writer's lock was not had in
    time or the connection broke."""
    text = _one_line(e)
    if "locked" in text or "could not serialize" in text or ("connection" in text and "closed" in text):
        return NotWritten(f"--history {db.shown}: {text}: nothing added")
    if "not a database" in text or "malformed" in text:
        return InputError(f"--history {db.shown}: a damaged database ({text}): not used, left as it is")
    return InputError(f"--history {db.shown}: {text}")


def add(db: Database, new_runs: list[NewRun]) -> list[Added]:
    """Adds the runs to the history in one transaction under the writers' lock, creating the history in an
    empty database; a run whose file (by SHA-256) is there already is left as it is. Raises InputError for a
    database that is not a history of this schema, NotWritten when it could not be written."""
    if db.path is not None:
        _check_sqlite_file(db, create=True)
    for attempt in range(2):  # a UNIQUE violation: another writer without the lock added it; again, it is found
        try:
            return _add_once(db, new_runs)
        except IntegrityError as e:
            if attempt:
                raise _database_error(db, e) from None
        except NoSuchModuleError as e:
            raise InputError(f"--history {db.shown}: {e}") from None
        except SQLAlchemyError as e:
            raise _database_error(db, e) from None
    raise AssertionError("unreachable")


def _add_once(db: Database, new_runs: list[NewRun]) -> list[Added]:
    engine = _engine(db, write=True)
    done: list[Added] = []
    try:
        with engine.begin() as conn:
            _lock(conn)
            _check_identity(db)
            version = _check_schema(conn, db, create=True)
            if version != SCHEMA_VERSION:  # an earlier version: upgraded in the same transaction as the addition
                _upgrade_tables(conn, version)
            for new in new_runs:
                found = conn.execute(select(runs.c.id, runs.c.label).where(runs.c.sha256 == new.sha256)).first()
                if found is not None:
                    done.append(Added(new.file.path, found.id, found.label, False))
                    continue
                run_id = conn.execute(insert(runs).values(sha256=new.sha256, **new.run)).inserted_primary_key[0]
                conn.execute(insert(results), [{"run_id": run_id, **row} for row in new.rows])
                done.append(Added(new.file.path, run_id, new.run["label"], True))
    finally:
        engine.dispose()
    return done


@dataclass
class Run:
    """A run of the history, as its columns say."""

    id: int
    label: str
    run_at: str
    file_name: str
    iobench_version: str | None
    iobench_commit: str | None
    compiler: str | None
    build_type: str | None
    host: str | None
    cpu_model: str | None
    kernel: str | None
    os: str | None
    suite: str | None
    scale: str | None
    instructions_source: str | None
    # The CPU emulator the run was made under (its context's "emulator": qemu-aarch64 ...), or None: read from
    # the context kept with the run, not a column of its own.
    emulator: str | None = None


def _emulator(context_json: str | None) -> str | None:
    """The emulator a run's context (as the history keeps it, JSON) names, without its details, or None."""
    try:
        value = json.loads(context_json or "{}").get("emulator")
    except (ValueError, AttributeError):
        return None
    return str(value).split(":")[0] if value else None


@dataclass
class Result:
    """A benchmark in a run: its status and, with a result, the median time of a run (s), its 95 % interval
    (None below 6 repetitions), instructions per item (None when not counted), the repetitions and, in runs
    added by schema version 2, a per-call row's p50, p99 and p99.9 (seconds per call) and the throughput
    (bytes and items per second); None where not measured."""

    status: str
    error: str | None
    median: float | None
    ci: tuple[float, float] | None
    instructions: float | None
    repetitions: int | None
    p50: float | None = None  # per call, seconds (schema version 2; per-call rows)
    p99: float | None = None
    p999: float | None = None
    bytes_per_second: float | None = None  # throughput (schema version 2)
    items_per_second: float | None = None

    @property
    def ok(self) -> bool:
        """True for a result that ran, was verified and has a median time."""
        return self.status == "ok" and self.median is not None


# What a series is: the runs of one machine (host and CPU model), compiler, suite and scale, whether and how
# they counted instructions (the times of a run under valgrind are ~50x the real ones) and whether they ran
# on an emulated CPU (an emulator's times are not a CPU's: never in one series with the machine's own). The
# kernel, the build and iobench's own version are not: a change of them is a change a series should show.
SERIES_KEY = ("host", "cpu_model", "compiler", "suite", "scale", "instructions_source", "emulator")


@dataclass
class Series:
    """The runs of one machine, compiler, suite and scale, in the order of their dates, and per benchmark
    one Result (or None: not in that run) per run."""

    key: tuple
    runs: list[Run]
    benchmarks: dict[str, list[Result | None]] = field(default_factory=dict)

    @property
    def real_times(self) -> bool:
        """False when the runs counted instructions under valgrind: their times are ~50x the real ones."""
        return self.key[5] != "valgrind"

    @property
    def title(self) -> str:
        """ "vm (AMD EPYC), GNU 12.2.0, suite quick, scale 0.05", and ", instructions by valgrind" """
        host, cpu, compiler, suite, scale = (v if v is not None else "?" for v in self.key[:5])
        counted = f", instructions by {self.key[5]}" if self.key[5] else ""
        emulated = f", emulated CPU ({self.key[6]})" if self.key[6] else ""
        return f"{host} ({cpu}), {compiler}, suite {suite}, scale {scale}{counted}{emulated}"


@dataclass
class History:
    """Everything a history holds, by series."""

    db: Database
    runs: int
    series: list[Series]


def _read_rows(db: Database):
    """(schema version, the runs in the order of their dates, the results) in one read-only transaction, or
    None for an empty database."""
    engine = _engine(db, write=False)
    try:
        with engine.begin() as conn:
            _check_identity(db)
            version = _check_schema(conn, db, create=False)
            if not version:
                return None
            run_rows = conn.execute(select(runs).order_by(runs.c.run_at, runs.c.id)).all()
            columns = [results.c[c] for c in _COLUMNS[version][results.name]]
            return version, run_rows, conn.execute(select(*columns)).all()
    finally:
        engine.dispose()


def read(db: Database) -> History:
    """Reads the whole history. A history of an earlier schema version is upgraded in place first (upgrade());
    one this user cannot write is read as it is. Raises InputError for a database that is absent, not a
    history of a version this iobench-compare knows, or damaged."""
    if db.path is not None:
        _check_sqlite_file(db, create=False)
    try:
        found = _read_rows(db)
        if found is not None and found[0] != SCHEMA_VERSION:
            try:
                upgrade(db)
            except (InputError, NotWritten) as e:
                if "readonly" not in str(e) and "read-only" not in str(e):
                    raise
            found = _read_rows(db)
    except NoSuchModuleError as e:
        raise InputError(f"--history {db.shown}: {e}") from None
    except SQLAlchemyError as e:
        raise _database_error(db, e) from None
    if found is None:
        return History(db, 0, [])
    _, run_rows, result_rows = found
    by_key: dict[tuple, Series] = {}
    position: dict[int, tuple[Series, int]] = {}
    for r in run_rows:
        run = Run(**{k: r._mapping[k] for k in Run.__dataclass_fields__ if k != "emulator"},
                  emulator=_emulator(r._mapping["context"]))
        series = by_key.setdefault(tuple(getattr(run, k) for k in SERIES_KEY),
                                   Series(tuple(getattr(run, k) for k in SERIES_KEY), []))
        position[run.id] = (series, len(series.runs))
        series.runs.append(run)
    empty = (None,) * len(ADDED_IN_2)
    for r in result_rows:  # (the columns of _COLUMNS[version], in order: tuples, not mappings, for speed)
        run_id, benchmark, status, error, median, low, high, instructions, repetitions, *figures = r
        if run_id not in position:
            # A run another writer committed between the two reads (PostgreSQL reads each statement as
            # committed when it starts; SQLite holds one snapshot): left for the next read, as its run is.
            continue
        series, index = position[run_id]
        values = series.benchmarks.get(benchmark)
        if values is None:
            values = series.benchmarks[benchmark] = [None] * len(series.runs)
        values[index] = Result(status, error, median, (low, high) if low is not None and high is not None else None,
                               instructions, repetitions, *(figures or empty))
    for series in by_key.values():  # benchmarks in name order, workloads together
        series.benchmarks = dict(sorted(series.benchmarks.items()))
    return History(db, len(run_rows), list(by_key.values()))
