"""Runs one test module the way ctest does: `python3 run_tests.py test_compare [-v]`.

unittest's loader runs every TestCase class of the module, whatever its name.
Exit status: 0 every test passed; 1 a test failed or raised, the module could not
be imported, or it holds no test at all; 77 (ctest's SKIP_RETURN_CODE) every test
was skipped, with the reasons printed.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True

# The exit status of a run whose every test was skipped: ctest reports the test as skipped.
EXIT_ALL_SKIPPED = 77


def status(result: unittest.TestResult) -> int:
    """The exit status of a finished run (see the module's docstring)."""
    if not result.wasSuccessful() or result.testsRun == 0:
        return 1
    if result.skipped and len(result.skipped) >= result.testsRun:  # (a skipped class counts no test run)
        return EXIT_ALL_SKIPPED
    return 0


def run(module: str, verbosity: int = 1) -> int:
    """Loads every test of `module` (a module name beside this file), runs them; returns the exit status."""
    suite = unittest.defaultTestLoader.loadTestsFromName(module)
    result = unittest.TextTestRunner(verbosity=verbosity).run(suite)
    if result.testsRun == 0:
        print(f"{module}: no test ran", file=sys.stderr)
    return status(result)


if __name__ == "__main__":
    args = sys.argv[1:]
    names = [a for a in args if not a.startswith("-")]
    if len(names) != 1:
        sys.exit("usage: run_tests.py test_<name> [-v]")
    sys.exit(run(names[0], 2 if "-v" in args else 1))
