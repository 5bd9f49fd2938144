"""What the iobench-compare tests share: paths, running the tool from the source tree, golden files.

The tool runs as `python -m iobench_compare` with tools/ on PYTHONPATH (no pip
install needed, nothing written into the source tree), with the interpreter that
runs the tests. Fixtures: fixtures/ (see make_fixtures.py and
make_counter_fixtures.py); golden outputs: expected/ (IOBENCH_UPDATE_GOLDEN=1
rewrites them instead of comparing).
"""

import csv
import io
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
LAUNCHER = os.path.join(TOOLS, "iobench-compare")
FIXTURES = os.path.join(HERE, "fixtures")
EXPECTED = os.path.join(HERE, "expected")
sys.path.insert(0, TOOLS)
sys.dont_write_bytecode = True

try:
    import matplotlib  # noqa: F401
    import scipy  # noqa: F401
    import tabulate  # noqa: F401
except ImportError as e:  # fail loudly: a skipped test would hide a missing dependency
    sys.exit(f"iobench-compare tests: {e}: run them with a Python 3 that has python3-scipy, python3-matplotlib "
             "and python3-tabulate")


def fixture(name):
    return os.path.join(FIXTURES, name)


def tool_env(**extra):
    """The environment the tool runs in: tools/ first on PYTHONPATH, no bytecode, no display."""
    env = dict(os.environ)
    env["PYTHONPATH"] = TOOLS + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.setdefault("MPLBACKEND", "Agg")
    env.update(extra)
    return env


# The third-party modules the tool imports, loaded once here so that each run
# of the tool (a forked copy of this process) starts without the ~0.8 s SciPy
# takes to import.
_PRELOAD = ("numpy", "scipy.ndimage", "scipy.stats", "tabulate", "matplotlib")


def _preload():
    import importlib

    os.environ.setdefault("MPLBACKEND", "Agg")  # matplotlib reads it when it is imported
    for name in _PRELOAD:
        importlib.import_module(name)


def _tool_in_child(args, cwd, env, stdin_fd, stdout_fd, stderr_fd, preexec):
    """In the forked child: the process `python -m iobench_compare ARGS` would be, then exits with its status."""
    status = 1
    try:
        for fd, target in ((stdin_fd, 0), (stdout_fd, 1), (stderr_fd, 2)):
            os.dup2(fd, target)
        os.closerange(3, 256)  # the parent's pipes and files: the tool sees its three descriptors only
        if cwd is not None:
            os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        if preexec is not None:
            preexec()
        # New standard streams on descriptors 0-2, as a new interpreter opens them.
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # pylint: disable=consider-using-with
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # pylint: disable=consider-using-with
        sys.stderr = open(2, "w", buffering=1, encoding="utf-8", errors="backslashreplace",  # pylint: disable=consider-using-with
                          closefd=False)
        # iobench-compare's own modules are imported anew (what a test imported stays the test's).
        for name in [m for m in sys.modules if m == "iobench_compare" or m.startswith("iobench_compare.")]:
            del sys.modules[name]
        sys.argv = [os.path.join(TOOLS, "iobench_compare", "__main__.py"), *args]
        import runpy

        try:
            runpy.run_module("iobench_compare", run_name="__main__", alter_sys=True)
            status = 0
        except SystemExit as e:  # as the interpreter reads sys.exit()'s argument
            if e.code is None:
                status = 0
            elif isinstance(e.code, int):
                status = e.code
            else:
                print(e.code, file=sys.stderr)
                status = 1
        except BaseException:  # pylint: disable=broad-except
            import traceback

            traceback.print_exc()
            status = 1
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                status = status or 120  # as the interpreter does when it cannot flush at exit
    except BaseException:  # pylint: disable=broad-except
        import traceback

        os.write(2, f"run_tool: the child failed before the tool ran:\n{traceback.format_exc()}".encode())
    finally:
        os._exit(status)  # no handler of the test's process runs in the child


def _starts_differently(env):
    """Whether `env` holds a PYTHON* variable (PYTHONPATH, ...) of another value than this process's tool_env()."""
    mine = tool_env()
    names = {n for n in (*env, *mine) if n.startswith("PYTHON")}
    return any(env.get(n) != mine.get(n) for n in names)


def run_tool(args, cwd=None, env=None, stdout=subprocess.PIPE, preexec=None, timeout=None):
    """Runs iobench-compare with ARGS as `python -m iobench_compare ARGS` would (its own
    descriptors 0-2, working directory, environment: tool_env() unless `env`), in a forked
    copy of this process with its third-party modules already imported; standard input is
    empty. `stdout`: subprocess.PIPE (returned), subprocess.DEVNULL or a file. `preexec` runs in the
    child first (resource limits). An `env` whose PYTHON* variables differ from tool_env()'s
    (a PYTHONPATH that hides a module) runs a new interpreter instead. Returns (exit status, stdout or None, stderr); raises
    subprocess.TimeoutExpired (the child killed) past `timeout` seconds."""
    import selectors
    import time

    env = tool_env() if env is None else env
    if _starts_differently(env):  # only a new interpreter reads them
        done = subprocess.run([sys.executable, "-m", "iobench_compare", *args], stdin=subprocess.DEVNULL,
                              stdout=stdout, stderr=subprocess.PIPE, text=True, check=False, env=env, cwd=cwd,
                              preexec_fn=preexec, timeout=timeout)
        return done.returncode, done.stdout, done.stderr
    _preload()
    if stdout == subprocess.PIPE:
        out_r, out_w = os.pipe()
    elif stdout == subprocess.DEVNULL:
        out_r, out_w = None, os.open(os.devnull, os.O_WRONLY)
    else:  # a file (an object with fileno(), or a descriptor), as subprocess.run takes it
        out_r, out_w = None, os.dup(stdout if isinstance(stdout, int) else stdout.fileno())
    err_r, err_w = os.pipe()
    null_in = os.open(os.devnull, os.O_RDONLY)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _tool_in_child(list(args), cwd, env, null_in, out_w, err_w, preexec)
    for fd in (out_w, err_w, null_in):
        os.close(fd)
    chunks = {fd: [] for fd in (out_r, err_r) if fd is not None}
    deadline = None if timeout is None else time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        for fd in chunks:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                raise subprocess.TimeoutExpired(["iobench_compare", *args], timeout)
            for key, _ in selector.select(left):
                data = os.read(key.fd, 65536)
                if data:
                    chunks[key.fd].append(data)
                else:
                    selector.unregister(key.fd)
                    os.close(key.fd)
    _, wait_status = os.waitpid(pid, 0)
    status = os.waitstatus_to_exitcode(wait_status)

    def text(fd):
        # As subprocess.run(text=True) decodes: the locale's encoding, universal newlines.
        return None if fd is None else io.TextIOWrapper(io.BytesIO(b"".join(chunks[fd])), encoding="utf-8").read()

    return status, text(out_r), text(err_r)


def run(*args, cwd=None):
    """Runs the tool (run_tool); returns (exit status, stdout, stderr)."""
    return run_tool(args, cwd=cwd)


def run_ok(testcase, *args):
    status, out, err = run(*args)
    testcase.assertEqual(status, 0, err)
    testcase.assertEqual(err, "")
    return out


def csv_rows(testcase, *args):
    """The tool's CSV output, parsed back: {(benchmark, file): row}."""
    from iobench_compare.render import CSV_COLUMNS

    out = run_ok(testcase, *args, "--format", "csv")
    reader = csv.DictReader(io.StringIO(out))
    testcase.assertEqual(reader.fieldnames, CSV_COLUMNS)
    return {(r["benchmark"], r["file"]): r for r in reader}


def rows_of(name):
    with open(fixture(name), encoding="utf-8") as f:
        return json.load(f)["benchmarks"]


def iteration_rows(name, benchmark):
    return [r for r in rows_of(name) if r["name"] == benchmark and r["run_type"] == "iteration"]


def iteration_times(name, benchmark):
    """Wall times in seconds of a fixture's iteration rows, read independently of the tool."""
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    return [r["real_time"] * scale[r["time_unit"]] for r in iteration_rows(name, benchmark)]


def check_golden(testcase, golden, text):
    """Compares `text` with expected/<golden> (or rewrites it with IOBENCH_UPDATE_GOLDEN=1)."""
    path = os.path.join(EXPECTED, golden)
    if os.environ.get("IOBENCH_UPDATE_GOLDEN"):
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    with open(path, encoding="utf-8", newline="") as f:
        testcase.assertEqual(text, f.read(), f"differs from {golden}; IOBENCH_UPDATE_GOLDEN=1 rewrites it")


def main():
    """unittest.main(), with run_tests.py's exit status: 77 when every test that ran was skipped."""
    import unittest

    from run_tests import status

    program = unittest.main(exit=False)
    sys.exit(status(program.result))
