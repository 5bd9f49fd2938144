"""The runner ctest uses (run_tests.py): every test class runs whatever its name, and a failure fails."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

from support import HERE, main

RUNNER = os.path.join(HERE, "run_tests.py")
CMAKE_LISTS = os.path.join(os.path.dirname(HERE), "CMakeLists.txt")


class RunnerTest(unittest.TestCase):
    """Modules written into a temporary directory beside a copy of the runner, run as ctest runs them."""

    def run_module(self, source):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        shutil.copy(RUNNER, tmp)
        with open(os.path.join(tmp, "test_sample.py"), "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(source))
        done = subprocess.run([sys.executable, os.path.join(tmp, "run_tests.py"), "test_sample", "-v"],
                              capture_output=True, text=True, check=False,
                              env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        return done.returncode, done.stdout + done.stderr

    def test_a_failure_in_a_class_of_any_name_fails(self):
        status, out = self.run_module("""
            import unittest

            class Checks(unittest.TestCase):
                def test_wrong(self):
                    self.assertEqual(1, 2)
            """)
        self.assertEqual(status, 1, out)
        self.assertIn("test_wrong (test_sample.Checks", out)
        self.assertIn("FAILED (failures=1)", out)

    def test_an_error_fails(self):
        status, out = self.run_module("""
            import unittest

            class Checks(unittest.TestCase):
                def test_raises(self):
                    raise RuntimeError("broken")
            """)
        self.assertEqual(status, 1, out)

    def test_a_module_that_does_not_import_fails(self):
        status, out = self.run_module("import no_such_module_here\n")
        self.assertEqual(status, 1, out)

    def test_a_module_without_tests_fails(self):
        status, out = self.run_module("X = 1\n")
        self.assertEqual(status, 1, out)
        self.assertIn("no test ran", out)

    def test_passing_classes_of_any_name_all_run(self):
        status, out = self.run_module("""
            import unittest

            class Checks(unittest.TestCase):
                def test_one(self):
                    pass

            class MoreChecks(unittest.TestCase):
                def test_two(self):
                    pass
            """)
        self.assertEqual(status, 0, out)
        self.assertIn("Ran 2 tests", out)

    def test_all_skipped_is_77(self):
        status, out = self.run_module("""
            import unittest

            @unittest.skip("no browser here")
            class Checks(unittest.TestCase):
                def test_one(self):
                    pass
            """)
        self.assertEqual(status, 77, out)
        self.assertIn("no browser here", out)

    def test_ctest_runs_every_module_with_this_runner(self):
        with open(CMAKE_LISTS, encoding="utf-8") as f:
            cmake = f.read()
        self.assertIn("tests/run_tests.py test_${_iobench_name}", cmake)
        self.assertNotIn("Test\\\\(", cmake)  # no class-name pattern chooses what runs
        # The modules CMake lists (no GLOB) are the folder's test_*.py, every one.
        listed = re.search(r"set\(_iobench_tests\s+([^)]*)\)", cmake)
        self.assertIsNotNone(listed, "no set(_iobench_tests ...) in tools/CMakeLists.txt")
        modules = sorted(name[len("test_"):-len(".py")] for name in os.listdir(HERE)
                         if name.startswith("test_") and name.endswith(".py"))
        self.assertEqual(sorted(listed.group(1).split()), modules)


if __name__ == "__main__":
    main()
