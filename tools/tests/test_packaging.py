#!/usr/bin/env python3
"""Tests of how iobench-compare is run: the launcher of a source checkout (tools/iobench-compare,
which the main job calls), the main job's HTML step (tools/report-newest.cmake), and
`pip install ./tools`, which gives an `iobench-compare` command.

PackagingTest installs a copy of tools/ into a fresh virtual environment that sees this
Python's packages (--system-site-packages: Debian's python3-scipy & co.), offline
(--no-index), so pip must find every declared dependency already satisfied. It is
skipped when this Python cannot create a virtual environment with pip (Debian: python3-venv).
"""

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

from support import LAUNCHER, TOOLS, fixture, main

from iobench_compare.pins import differences, installed, parse as parse_pins, pinned


VERSION_HEADER = os.path.join(TOOLS, os.pardir, "include", "iobench", "version.hpp")


def header_version() -> str:
    """iobench's version as include/iobench/version.hpp writes it, read here with a regular expression."""
    with open(VERSION_HEADER, encoding="utf-8") as f:
        text = f.read()
    return ".".join(re.search(rf"#define IOBENCH_VERSION_{p} (\d+)", text).group(1) for p in ("MAJOR", "MINOR", "PATCH"))


def sh(*args, env=None, cwd=None):
    done = subprocess.run(["sh", LAUNCHER, *args], capture_output=True, text=True, check=False, env=env, cwd=cwd)
    return done.returncode, done.stdout, done.stderr


def stub(directory, name, script):
    """An executable `name` in `directory` running the sh `script`."""
    path = os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write("#!/bin/sh\n" + script + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def base_env(path):
    env = {k: v for k, v in os.environ.items() if k not in ("IOBENCH_PYTHON", "PYTHONPATH")}
    env["PATH"] = path
    env["MPLBACKEND"] = "Agg"
    return env


class LauncherTest(unittest.TestCase):
    """tools/iobench-compare: picks a Python with the dependencies and runs the package from the tree."""

    def test_main_job_command(self):
        # As the main job runs it: tools/iobench-compare --format html -o results/<name>.html results/<name>.json
        with tempfile.TemporaryDirectory() as tmp:
            results = os.path.join(tmp, "results")
            os.mkdir(results)
            shutil.copy(fixture("quick-gcc.json"), os.path.join(results, "gcc-12.2.0-x.json"))
            env = base_env(os.environ["PATH"])
            env["IOBENCH_PYTHON"] = sys.executable
            done = subprocess.run([LAUNCHER, "--format", "html", "-o", "results/gcc-12.2.0-x.html",
                                   "results/gcc-12.2.0-x.json"], cwd=tmp, env=env, capture_output=True, text=True,
                                  check=False)
            self.assertEqual((done.returncode, done.stdout, done.stderr), (0, "", ""))
            with open(os.path.join(results, "gcc-12.2.0-x.html"), encoding="utf-8") as f:
                self.assertIn("<h1>iobench report</h1>", f.read())
        self.assertFalse(os.path.exists(os.path.join(TOOLS, "iobench_compare", "__pycache__")))

    def test_default_search(self):
        # Without IOBENCH_PYTHON: python3, python, then /usr/bin/python3. A python3 first on PATH without the
        # dependencies (another installation) is passed over, not fatal.
        with tempfile.TemporaryDirectory() as tmp:
            stub(tmp, "python3", "exit 1")  # no dependencies
            stub(tmp, "python", f'exec "{sys.executable}" "$@"')  # this one has them
            status, out, err = sh(fixture("gcc.json"), env=base_env(tmp + os.pathsep + os.environ["PATH"]))
            self.assertEqual((status, err), (0, ""))
            self.assertIn("ints_out: time per run", out)

    def test_bad_input_keeps_its_status(self):
        env = base_env(os.environ["PATH"])
        env["IOBENCH_PYTHON"] = sys.executable
        status, out, err = sh(fixture("nosuch.json"), env=env)
        self.assertEqual((status, out), (2, ""))
        self.assertTrue(err.startswith("iobench-compare: error: "), err)

    def test_no_python_with_the_dependencies(self):
        with tempfile.TemporaryDirectory() as tmp:
            python = stub(tmp, "python-without", "exit 1")
            env = base_env(os.environ["PATH"])
            env["IOBENCH_PYTHON"] = python  # chosen: no fallback
            status, out, err = sh(fixture("gcc.json"), env=env)
        self.assertEqual((status, out), (3, ""))
        self.assertEqual(err.count("\n"), 1, err)
        self.assertIn(f"no Python 3.9+ with numpy, scipy, matplotlib and tabulate (tried: {python}); install "
                      "python3-scipy, python3-matplotlib and python3-tabulate (tools/install-deps.sh --tools)", err)
        self.assertIn("pip install ./tools", err)

    def test_missing_dependency_inside_python(self):
        # Run as a module by a Python that lacks one: exit status 3 and what to install, no traceback.
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "tabulate.py"), "w", encoding="utf-8") as f:
                f.write("raise ImportError('No module named tabulate', name='tabulate')\n")
            env = base_env(os.environ["PATH"])
            env["PYTHONPATH"] = tmp + os.pathsep + TOOLS
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            done = subprocess.run([sys.executable, "-m", "iobench_compare", fixture("gcc.json")], env=env,
                                  capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 3, done.stderr)
        self.assertIn("iobench-compare: error: tabulate is missing from this Python", done.stderr)
        self.assertNotIn("Traceback", done.stderr)

    def test_version(self):
        from iobench_compare import __version__

        self.assertEqual(__version__, header_version())  # iobench's, written once in its header

        env = base_env(os.environ["PATH"])
        env["IOBENCH_PYTHON"] = sys.executable
        self.assertEqual(sh("--version", env=env), (0, f"iobench-compare {__version__}\n", ""))


class MainJobReportTest(unittest.TestCase):
    """tools/report-newest.cmake: the main job's HTML step, next to the newest result file."""

    def setUp(self):
        self.cmake = os.environ.get("CMAKE") or shutil.which("cmake")
        if not self.cmake:
            self.skipTest("no cmake (ctest sets CMAKE)")
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.results = os.path.join(self.tmp, "results")
        os.mkdir(self.results)

    def add(self, name, source, age):
        path = os.path.join(self.results, name)
        shutil.copy(fixture(source), path)
        os.utime(path, (1_700_000_000 - age, 1_700_000_000 - age))
        return path

    def script(self, *defines, **env):
        environment = base_env(os.environ["PATH"])
        environment.update(env)
        done = subprocess.run([self.cmake, f"-DRESULTS_DIR={self.results}", *defines, "-P",
                               os.path.join(TOOLS, "report-newest.cmake")], capture_output=True, text=True,
                              check=False, env=environment)
        return done.returncode, done.stdout + done.stderr

    def test_report_of_the_newest(self):
        self.add("gcc-12.2.0-old.json", "gcc.json", 3600)
        new = self.add("gcc-12.2.0-new.json", "quick-gcc.json", 0)
        status, out = self.script(f"-DPYTHON={sys.executable}")
        self.assertEqual(status, 0, out)
        self.assertIn(f"iobench: HTML report written to {new[:-5]}.html", out)
        self.assertEqual(sorted(os.listdir(self.results)),
                         ["gcc-12.2.0-new.html", "gcc-12.2.0-new.json", "gcc-12.2.0-old.json"])

    def test_through_the_launcher(self):
        new = self.add("run.json", "quick-gcc.json", 0)
        status, out = self.script(IOBENCH_PYTHON=sys.executable)
        self.assertEqual(status, 0, out)
        self.assertTrue(os.path.exists(new[:-5] + ".html"))

    def test_without_the_python_packages_it_says_how_to_get_them(self):
        new = self.add("run.json", "quick-gcc.json", 0)
        status, out = self.script(IOBENCH_PYTHON=stub(self.tmp, "python-without", "exit 1"))
        self.assertEqual(status, 0, out)  # the JSON is the result: the main job still succeeds
        self.assertIn("iobench: no HTML report: iobench-compare: error: no Python 3.9+ with numpy", out)
        self.assertIn("tools/install-deps.sh --tools", out)
        self.assertIn(f"iobench: once installed: tools/iobench-compare --format html -o {new[:-5]}.html {new}", out)
        self.assertFalse(os.path.exists(new[:-5] + ".html"))

    def test_failures(self):
        status, out = self.script(f"-DPYTHON={sys.executable}")
        self.assertNotEqual(status, 0)
        self.assertIn("no result file (*.json) in", out)
        with open(os.path.join(self.results, "cut.json"), "w", encoding="utf-8") as f:
            f.write('{"context": {')
        status, out = self.script(f"-DPYTHON={sys.executable}")
        self.assertNotEqual(status, 0)
        self.assertIn("the HTML report of", out)
        self.assertIn("truncated JSON", out)


class PinsTest(unittest.TestCase):
    """tools/constraints.txt: the versions the tests run with, the one list of them."""

    def test_the_python_running_the_tests_has_the_pinned_versions(self):
        # Where this fails, the Python that runs the tests is not the one CI tests: tools/install-deps.sh installs
        # Debian 12's python3-numpy, -scipy, -matplotlib, -tabulate, -sqlalchemy and -psycopg2;
        # another distribution's packages have other versions (install the pinned ones with
        # `pip install -r tools/constraints.txt` in a virtual environment).
        pins = pinned()
        self.assertEqual(sorted(pins), sorted(["numpy", "scipy", "matplotlib", "tabulate", "SQLAlchemy", "psycopg2"]))
        found = {name: installed(name) for name in pins}
        self.assertEqual(found, pins)
        self.assertEqual(differences(), [])

    def test_a_version_that_differs_is_said(self):
        self.assertEqual(differences(versions=lambda name: {"scipy": "1.13.0"}.get(name, pinned()[name])),
                         [f"scipy 1.13.0 (tested: {pinned()['scipy']})"])

    def test_the_file_is_pins_only(self):
        self.assertEqual(parse_pins(["# a comment", "", "scipy==1.10.1", 'ruptures==1.1.10; extra == "history"']),
                         {"scipy": "1.10.1", "ruptures": "1.1.10"})
        with self.assertRaises(ValueError):
            parse_pins(["scipy>=1.7"])

    def test_the_launcher_reads_its_package_names_from_the_file(self):
        # A Python lacking a package named only in constraints.txt is passed over.
        with tempfile.TemporaryDirectory() as tmp:
            tools = os.path.join(tmp, "tools")
            shutil.copytree(TOOLS, tools, ignore=shutil.ignore_patterns("__pycache__", "tests", "build"))
            with open(os.path.join(tools, "constraints.txt"), "a", encoding="utf-8") as f:
                f.write("no_such_package_zz==1.0\n")
            env = base_env(os.environ["PATH"])
            env["IOBENCH_PYTHON"] = sys.executable
            done = subprocess.run(["sh", os.path.join(tools, "iobench-compare"), fixture("gcc.json")], env=env,
                                  capture_output=True, text=True, check=False)
            self.assertEqual(done.returncode, 3, done.stderr)
            self.assertIn("iobench-compare: error: no Python 3.9+ with", done.stderr)


class PackagingTest(unittest.TestCase):
    """`pip install ./tools` into a virtual environment gives the iobench-compare command."""

    def test_pip_install(self):
        with tempfile.TemporaryDirectory() as tmp:
            venv = os.path.join(tmp, "venv")
            done = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv],
                                  capture_output=True, text=True, check=False)
            bindir = os.path.join(venv, "Scripts" if os.name == "nt" else "bin")
            python = os.path.join(bindir, "python")
            if done.returncode != 0 or subprocess.run([python, "-m", "pip", "--version"], capture_output=True,
                                                      check=False).returncode != 0:
                self.skipTest(f"{sys.executable} cannot make a virtual environment with pip (Debian: install "
                              f"python3-venv): {done.stderr.strip()[-300:]}")
            # A copy: pip builds in the source directory (build/, *.egg-info), which must stay clean. With it the
            # header the version is read from, where it is in iobench's tree (tools/../include/iobench/).
            source = os.path.join(tmp, "tools")
            shutil.copytree(TOOLS, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
            os.makedirs(os.path.join(tmp, "include", "iobench"))
            shutil.copy(VERSION_HEADER, os.path.join(tmp, "include", "iobench"))
            done = subprocess.run([python, "-m", "pip", "install", "--no-index", "--no-build-isolation",
                                   "--disable-pip-version-check", source + "[history]"], capture_output=True,
                                  text=True, check=False)
            self.assertEqual(done.returncode, 0, done.stdout[-2000:] + done.stderr[-2000:])
            command = os.path.join(bindir, "iobench-compare")
            self.assertTrue(os.path.exists(command))
            env = base_env(os.environ["PATH"])
            done = subprocess.run([command, fixture("gcc.json"), fixture("clang.json")], capture_output=True,
                                  text=True, check=False, env=env, cwd=tmp)
            self.assertEqual((done.returncode, done.stderr), (0, ""))
            self.assertIn("ints_out: time per run", done.stdout)
            requires = subprocess.run([python, "-c", "import importlib.metadata as m, re; "
                                       "print(sorted((re.split('[ <>=;]', r)[0], re.findall('extra == .(\\w+)', r)) "
                                       "for r in m.requires('iobench-compare')))"],
                                      capture_output=True, text=True, check=True).stdout
            self.assertEqual(requires.strip(), str(sorted([
                ("matplotlib", []), ("numpy", []), ("scipy", []), ("tabulate", []),  # every use
                ("SQLAlchemy", ["history", "postgresql"]),  # --history only
                ("psycopg2", ["postgresql"])])))
            # Pinned at constraints.txt's versions: the installed package's metadata says the same.
            pins = subprocess.run([python, "-c", "from iobench_compare import pins; print(sorted(pins.pinned().items()))"],
                                  capture_output=True, text=True, check=True, cwd=tmp, env=env).stdout
            with open(os.path.join(TOOLS, "constraints.txt"), encoding="utf-8") as f:
                self.assertEqual(pins.strip(), str(sorted(parse_pins(f).items())))
            # With the history's extra: --history from the installed command.
            db = os.path.join(tmp, "history.sqlite")
            done = subprocess.run([command, "--history", db, "--add", "--label", "c1", fixture("gcc.json")],
                                  capture_output=True, text=True, check=False, env=env, cwd=tmp)
            self.assertEqual((done.returncode, done.stderr), (0, ""))
            self.assertIn("added to the history as run 1 (label c1)", done.stdout)
            # The installed package, not the source tree, answered.
            where = subprocess.run([python, "-c", "import iobench_compare; print(iobench_compare.__file__)"],
                                   capture_output=True, text=True, check=True, cwd=tmp, env=env).stdout
            self.assertTrue(where.startswith(venv), where)
            # The summary's columns come with it, as package data, the source's file (the copy built from is gone).
            shutil.rmtree(source)
            spec = subprocess.run([python, "-c", "import json; from iobench_compare import columns; "
                                   "print(json.dumps(columns.load_spec()))"],
                                  capture_output=True, text=True, check=True, cwd=tmp, env=env).stdout
            with open(os.path.join(TOOLS, "iobench_compare", "spec", "summary_columns.json"), encoding="utf-8") as f:
                self.assertEqual(json.loads(spec), json.load(f))
            # Its version is iobench's, from the header, in its metadata and at run time (no header beside it).
            shutil.rmtree(os.path.join(tmp, "include"))
            versions = subprocess.run([python, "-c", "import importlib.metadata as m, iobench_compare as c; "
                                       "print(m.version('iobench-compare'), c.__version__)"],
                                      capture_output=True, text=True, check=True, cwd=tmp, env=env).stdout
            self.assertEqual(versions.split(), [header_version()] * 2)


if __name__ == "__main__":
    main()
