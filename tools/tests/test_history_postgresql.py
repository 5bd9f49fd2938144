#!/usr/bin/env python3
"""Tests of the history (--history postgresql://...) in a real PostgreSQL server: adding, re-adding, two
writers at once, a database that is refused, and that the same files give the same history as in SQLite.

The server is a throwaway cluster that Debian's pg_virtualenv (package postgresql-common, with
postgresql) creates in a temporary directory (-t: also when run as root, when the server runs as the
user postgres) on a free port, for as long as the tests run; it is dropped afterwards. The whole module
is skipped (exit status 77), with the reason, only where PostgreSQL is not installed; where it is, it
runs, and a missing psycopg2 fails it.
"""

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import unittest
from urllib.parse import quote

import history_support as hs
from support import fixture, main


def _server_installed() -> str | None:
    """Why PostgreSQL cannot be run here, or None."""
    if not shutil.which("pg_virtualenv"):
        return "no pg_virtualenv (Debian's postgresql-common): install postgresql (tools/install-deps.sh)"
    if not glob.glob("/usr/lib/postgresql/*/bin/postgres"):
        return "no PostgreSQL server (/usr/lib/postgresql/*/bin/postgres): install postgresql (tools/install-deps.sh)"
    return None


class Server:
    """A throwaway PostgreSQL cluster: pg_virtualenv runs a shell that writes the connection's environment and
    waits for its standard input to close; closing it ends the shell, and pg_virtualenv drops the cluster."""

    def __init__(self):
        with socket.socket() as s:  # a free port (pg_createcluster would take 5432 in every temporary directory)
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.tmp = tempfile.mkdtemp()
        env_file = os.path.join(self.tmp, "env")
        script = 'env > "$0" && echo ready && exec cat > /dev/null'
        self.process = subprocess.Popen(["pg_virtualenv", "-t", "-c", f"-p {port}", "sh", "-c", script, env_file],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        lines = []
        for line in self.process.stdout:  # until the shell says so (or pg_virtualenv ends: it failed)
            lines.append(line)
            if line.strip() == "ready":
                break
        else:
            self.process.wait(timeout=60)
            raise RuntimeError(f"pg_virtualenv exited with {self.process.returncode}: "
                               f"{''.join(lines)[-1000:]} {self.process.stderr.read()[-2000:]}")
        with open(env_file, encoding="utf-8") as f:
            self.env = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)

    def url(self, database: str) -> str:
        e = self.env
        return (f"postgresql://{quote(e['PGUSER'])}:{quote(e['PGPASSWORD'])}@{e['PGHOST']}:{e['PGPORT']}/"
                f"{database}")

    def psql(self, database: str, sql: str) -> str:
        """Runs SQL with psql (not through the tool); returns its unaligned output."""
        env = dict(os.environ, **self.env)
        done = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", database, "-c", sql],
                              env=env, capture_output=True, text=True, check=True)
        return done.stdout.strip()

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=120)
        self.process.stdout.close()
        self.process.stderr.close()
        shutil.rmtree(self.tmp)


# Why the tests cannot run here (PostgreSQL is not installed), or None: every test is then skipped with it.
NOT_INSTALLED = _server_installed()


@unittest.skipIf(NOT_INSTALLED, NOT_INSTALLED or "")
class PostgreSQLTest(unittest.TestCase):
    """The history in one throwaway server, a database of its own per test."""

    created = 0

    @classmethod
    def setUpClass(cls):
        try:
            import psycopg2  # noqa: F401
        except ImportError as e:  # PostgreSQL is here: the driver must be too
            raise AssertionError(f"{e}: install python3-psycopg2 (tools/install-deps.sh)") from None
        cls.server = Server()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def setUp(self):
        PostgreSQLTest.created += 1
        self.name = f"history_{os.getpid()}_{PostgreSQLTest.created}"
        self.server.psql("postgres", f"CREATE DATABASE {self.name}")
        self.db = self.server.url(self.name)
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def test_add_readd_and_the_same_history_as_sqlite(self):
        files = [hs.variant(self.tmp, "quick-gcc.json", i, time_factors={"hello/fwrite": 1.3 if i >= 4 else 1.0})
                 for i in range(8)]
        sqlite = os.path.join(self.tmp, "history.sqlite")
        for i, path in enumerate(files):
            for db in (self.db, sqlite):
                status, out, err = hs.run_tool("--history", db, "--add", "--label", f"c{i + 1}", path)
                self.assertEqual((status, err), (0, ""))
                self.assertEqual(out, f"{path}: added to the history as run {i + 1} (label c{i + 1})\n")
        status, out, err = hs.run_tool("--history", self.db, "--add", "--label", "again", files[2])
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(out, f"{files[2]}: already in the history as run 3 (label c3): nothing added\n")
        self.assertEqual(self.server.psql(self.name, "SELECT count(*) FROM iobench_runs"), "8")
        self.assertEqual(hs.csv_history(self, self.db), hs.csv_history(self, sqlite))
        status, out, err = hs.run_tool("--history", self.db)
        self.assertEqual((status, err), (0, ""))
        self.assertIn(" (PostgreSQL): 8 runs in 1 series", out)
        self.assertNotIn(self.server.env["PGPASSWORD"], out)  # the URL is shown without its password
        self.assertRegex(out, r"hello/fwrite +1 +time .* c4\.\.c5\n")

    def test_two_writers(self):
        files = [hs.variant(self.tmp, "gcc.json", i) for i in range(8)]
        first = hs.start_tool("--history", self.db, "--add", "--label", "a", *files)
        second = [hs.start_tool("--history", self.db, "--add", "--label", "b", f) for f in reversed(files)]
        text = ""
        for process in [first, *second]:
            out, err = process.communicate(timeout=300)
            self.assertEqual((process.returncode, err), (0, ""))
            text += out
        self.assertEqual(text.count("added to the history as run"), 8, text)
        self.assertEqual(text.count("already in the history"), 8, text)
        runs = self.server.psql(self.name, "SELECT file_name, count(*) FROM iobench_runs GROUP BY file_name "
                                      "ORDER BY file_name")
        self.assertEqual(runs.splitlines(), sorted(f"{os.path.basename(f)}|1" for f in files))
        per_run = self.server.psql(self.name, "SELECT count(*) FROM iobench_results GROUP BY run_id")
        self.assertEqual(sorted(per_run.splitlines()), ["4"] * 8)

    def test_refused_databases(self):
        self.server.psql(self.name, "CREATE TABLE accounts (id integer primary key, name text); "
                               "INSERT INTO accounts VALUES (1, 'x')")
        for args in (["--add", "--label", "c1", fixture("gcc.json")], []):
            status, out, err = hs.run_tool("--history", self.db, *args)
            self.assertEqual((status, out), (2, ""), err)
            self.assertEqual(err.count("\n"), 1, err)
            self.assertIn("holds tables that are not an iobench history (accounts): not used, left as it is", err)
        self.assertEqual(self.server.psql(self.name, "SELECT string_agg(tablename, ',') FROM pg_tables "
                                                "WHERE schemaname = 'public'"), "accounts")
        self.server.psql(self.name, "DROP TABLE accounts")
        hs.run_tool("--history", self.db, "--add", "--label", "c1", fixture("gcc.json"))
        self.server.psql(self.name, "UPDATE iobench_schema SET version = 3")
        status, out, err = hs.run_tool("--history", self.db, "--add", "--label", "c2", fixture("clang.json"))
        self.assertEqual((status, out), (2, ""), err)
        self.assertIn("an iobench history of schema version 3, newer than this iobench-compare's (2)", err)
        self.assertEqual(self.server.psql(self.name, "SELECT count(*) FROM iobench_runs"), "1")
        # A version-1 history (the tables as version 1 made them) is upgraded in place by an addition.
        self.server.psql(self.name, "ALTER TABLE iobench_results DROP COLUMN p50_s, DROP COLUMN p99_s, "
                                    "DROP COLUMN p999_s, DROP COLUMN bytes_per_second, DROP COLUMN items_per_second; "
                                    "UPDATE iobench_schema SET version = 1")
        status, out, err = hs.run_tool("--history", self.db, "--add", "--label", "c2", fixture("quick-gcc.json"))
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(self.server.psql(self.name, "SELECT version FROM iobench_schema"), "2")
        self.assertEqual(self.server.psql(self.name, "SELECT count(*) FROM iobench_runs"), "2")
        self.assertEqual(self.server.psql(self.name, "SELECT count(*) FROM iobench_results WHERE p50_s IS NULL "
                                                     "AND bytes_per_second IS NOT NULL"), "13")

    def test_no_server(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]  # nothing listens there once closed
        status, out, err = hs.run_tool("--history", f"postgresql://nobody:secret@127.0.0.1:{port}/none")
        self.assertEqual((status, out), (2, ""), err)
        self.assertEqual(err.count("\n"), 1, err)
        self.assertIn(f"--history postgresql://nobody:***@127.0.0.1:{port}/none: ", err)
        self.assertNotIn("secret", err)


if __name__ == "__main__":
    main()
