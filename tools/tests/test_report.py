#!/usr/bin/env python3
"""Tests of the HTML report (--format html): its content, that it is self-contained, how a
real browser renders it, and the command the main job runs on a real iobench result.

BrowserTest renders reports in headless Chromium (Debian's chromium package, which
tools/install-deps.sh installs; IOBENCH_CHROMIUM names another binary) and is
skipped, with the reason, when there is none. EndToEndTest runs the iobench binary
named by IOBENCH (ctest sets it) on a tiny suite and is skipped without it.
Set IOBENCH_KEEP_SCREENSHOTS=DIR to keep the screenshots for a look.
"""

import html.parser
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import unittest

from support import FIXTURES, check_golden, fixture, iteration_times, main, rows_of, run, run_ok


def report(*args):
    """The HTML report of the given fixtures (with any further options), as text."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "report.html")
        status, out, err = run(*args, "--format", "html", "-o", path)
        if status != 0:
            raise AssertionError(f"iobench-compare exited with {status}: {err}")
        assert out == "" and err == "", (out, err)
        with open(path, encoding="utf-8") as f:
            return f.read()


class TagCounter(html.parser.HTMLParser):
    """Counts start and end tags, and collects the attributes that could load something."""

    def __init__(self):
        super().__init__()
        self.starts, self.ends, self.links = {}, {}, []

    def handle_starttag(self, tag, attrs):
        self.starts[tag] = self.starts.get(tag, 0) + 1
        self.links += [v or "" for k, v in attrs if k in ("src", "href", "xlink:href", "srcset", "data", "action")]

    def handle_endtag(self, tag):
        self.ends[tag] = self.ends.get(tag, 0) + 1


def parse(text):
    parser = TagCounter()
    parser.feed(text)
    parser.close()
    return parser


class ReportTest(unittest.TestCase):
    """What the report holds, checked on its HTML."""

    @classmethod
    def setUpClass(cls):
        cls.two = report(fixture("quick-gcc.json"), fixture("quick-clang-tenth.json"))
        cls.problems = report(fixture("gcc.json"), fixture("failed.json"), fixture("invalid-times.json"))
        cls.sweep = report(fixture("file-read-shm.json"))

    def test_threads_tables_and_a_chart_per_sink(self):
        # The threads suite's log rows: a table per sink, a column per thread count, each
        # cell items per second and the p99.9 call; a one-thread row in both sinks' tables.
        text = report(fixture("threads-log.json"))
        section = text.split('<section id="w-log">', 1)[1].split("</section>", 1)[0]
        for sink in ("per_thread", "shared"):
            self.assertIn(f"<h3>log, sink:{sink}: items per second &plusmn;95% CI, p99.9 call; a column per "
                          "thread count</h3>", section)
        tables = section.split('<table class="results threads">')[1:]
        self.assertEqual(len(tables), 2)
        header = "<tr><th>method</th><th>1 thread</th><th>2 threads</th><th>4 threads</th><th>8 threads</th></tr>"
        for table in tables:
            self.assertIn(header, table)
        per_thread, shared = (t.split("</table>", 1)[0] for t in tables)
        self.assertIn("<td>obuf</td>", per_thread)
        self.assertNotIn("<td>obuf</td>", shared)  # obuf has no shared-sink rows
        # fprintf's one-thread cell is the same row in both tables.
        first = re.search(r"<td>fprintf</td><td>([^<]+)</td>", per_thread).group(1)
        self.assertRegex(first, r"^[0-9.,]+ ?[kM]?/s, [0-9.]+ (ns|us)$")
        self.assertEqual(re.search(r"<td>fprintf</td><td>([^<]+)</td>", shared).group(1), first)
        self.assertIn("log, sink:shared: throughput against threads", section)

    def test_a_threads_chart_holds_at_most_8_lines(self):
        # Nine methods on a per-thread sink: two charts of that sink, 8 lines and 1.
        with open(fixture("threads-log.json"), encoding="utf-8") as f:
            doc = json.load(f)
        rows = []
        for b in doc["benchmarks"]:
            if b.get("method") != "fprintf" or "shared" in b["name"]:
                continue
            for k in range(1, 10):
                copy = dict(b)
                for key in ("name", "run_name"):
                    copy[key] = b[key].replace("/fprintf/", f"/m{k}/")
                copy["method"] = f"m{k}"
                rows.append(copy)
        doc["benchmarks"] = rows
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "nine.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(doc, f)
            text = report(path)
        charts = re.findall(r'aria-label="(log, sink:per_thread: throughput against threads[^"]*)"', text)
        self.assertEqual(charts, ["log, sink:per_thread: throughput against threads (1 of 2)",
                                  "log, sink:per_thread: throughput against threads (2 of 2)"])
        first, second = text.split('aria-label="log, sink:per_thread: throughput against threads (')[1:3]
        self.assertEqual(len(re.findall(r"<!-- m[0-9] -->", first.split("</figure>")[0])), 8)
        self.assertEqual(len(re.findall(r"<!-- m[0-9] -->", second.split("</figure>")[0])), 1)

    def test_self_contained(self):
        for text in (self.two, self.problems, self.sweep):
            tags = parse(text)
            for tag in ("script", "link", "img", "iframe", "object", "embed", "base"):
                self.assertNotIn(tag, tags.starts, tag)
            self.assertEqual([link for link in tags.links if not link.startswith("#")], [])
            found = re.search(r"url\((?!#)|@import|@font-face", text)  # url(#id): a reference inside the page
            self.assertIsNone(found, found and text[found.start() - 80:found.end() + 80])
            # The only URLs are XML namespace names, which nothing fetches.
            urls = set(re.findall(r"https?://[^\s\"'<>)]+", text))
            self.assertEqual(urls, {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"})

    def test_well_formed(self):
        for text in (self.two, self.problems, self.sweep):
            tags = parse(text)
            for tag in ("html", "body", "section", "table", "tr", "svg", "figure", "ul", "p"):
                self.assertEqual(tags.starts.get(tag), tags.ends.get(tag), tag)
            self.assertTrue(text.startswith("<!DOCTYPE html>\n<html lang=\"en\">"))

    def test_a_section_per_workload_with_table_and_charts(self):
        for workload in ("ints_out", "ints_in", "hello"):
            section = self.two.split(f'<section id="w-{workload}">', 1)[1].split("</section>", 1)[0]
            self.assertIn(f"<h2>{workload}</h2>", section)
            self.assertEqual(section.count('<table class="results">'), 1)
            self.assertEqual(section.count("<svg"), 1)  # the bar chart
            self.assertIn(f"{workload}: throughput by method", section)
        section = self.sweep.split('<section id="w-file_read">', 1)[1]
        self.assertEqual(section.count("<svg"), 2)  # bar chart and buffer-size sweep
        self.assertIn("file_read: throughput against buffer size", section)
        self.assertIn("buffer size (bytes), log scale", section)

    def test_tables_say_what_they_compare(self):
        self.assertIn("Compared: <strong>time per integer (the files ran different counts of integers per run: "
                      "100,000 (GNU 12.2.0 / Linux), 10,000 (Clang 14.0.6 / Linux))</strong>", self.two)
        self.assertIn("<th>time/integer</th>", self.two)
        for header in ("write calls", "read calls", "bytes/call", "sys", "x limit", "ratio", "significance"):
            self.assertIn(f"<th>{header}</th>", self.two)
        self.assertIn("Clang 14.0.6 / Linux against GNU 12.2.0 / Linux: ", self.two)  # the overall geomean

    def test_context_of_every_file(self):
        for key, value in (("compiler", "GNU 12.2.0"), ("compiler", "Clang 14.0.6"), ("OS", "Linux x86_64"),
                           ("file system", "tmpfs"), ("CPU", "AMD EPYC"), ("scale", "0.01"), ("scale", "0.001"),
                           ("suite", "quick")):
            self.assertRegex(self.two, f"<th>{re.escape(key)}</th>.*<td>{re.escape(value)}</td>")
        with open(fixture("quick-gcc.json"), encoding="utf-8") as f:
            available = json.load(f)["context"]["counters"].split(",")  # what iobench measured on this platform
        self.assertIn("write_calls", available)
        self.assertIn(f"<td>{', '.join(available)}</td>", self.two)
        self.assertIn("not recorded (iobench before it counted them)", self.problems)

    def test_plugins_in_the_context(self):
        # A run with iobench --plugin lists its plugins in the context: a row of the context
        # table names each plugin's families, file and SHA-256 (docs/plugins.md).
        with open(fixture("quick-gcc.json"), encoding="utf-8") as f:
            data = json.load(f)
        data["context"]["plugins"] = [{"path": "/home/me/build/spdlog_plugin.so", "sha256": "ab" * 32,
                                       "built_with": "GNU 12.2.0, libstdc++ 20220819, C++11 ABI, Release",
                                       "families": ["spdlog"], "methods": ["spdlog_st", "spdlog_mt"]}]
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "with-plugin.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f)
            page = report(path)
        self.assertRegex(page, r"<th>plugins</th><td>spdlog \(spdlog_plugin\.so, sha256 abababababababab\)</td>")
        self.assertNotIn("<th>plugins</th>", report(fixture("quick-gcc.json")))  # no plugin, no row

    def test_problem_rows_with_reasons(self):
        self.assertIn('<tr class="failed">', self.problems)
        self.assertIn("<code>hello/fwrite</code> in <code>failed.json</code> (GNU 12.2.0 / Linux (failed)): "
                      "FAILED: fclose(full/output-hello-fwrite): No space left on device", self.problems)
        self.assertIn("<code>ints_out/obuf</code> in <code>invalid-times.json</code> (GNU 12.2.0 / Linux "
                      "(invalid-times)): invalid: real_time is NaN in repetition 1", self.problems)
        self.assertIn('<tr class="skipped">', self.sweep)
        self.assertIn("skipped: madvise(MADV_HUGEPAGE) accepted", self.sweep)
        self.assertNotIn("FAILED", self.sweep)

    def test_warnings(self):
        self.assertIn("cv &ge; 5% (marked !) in ", self.two)
        # A benchmark whose repetitions disagree by 5 % or more, its cv computed here from the fixture.
        cvs = []
        for name in {r["name"] for r in rows_of("quick-gcc.json") if r["run_type"] == "iteration"}:
            times = iteration_times("quick-gcc.json", name)
            cvs.append(statistics.stdev(times) / statistics.mean(times))
        flagged = [cv for cv in cvs if cv >= 0.05]
        self.assertTrue(flagged, cvs)
        for cv in flagged:
            self.assertIn(f'<td class="num warn">! {cv * 100:.1f}%</td>', self.two)
        self.assertNotIn("too few repetitions", self.two)  # 6 repetitions against 6
        few = report(fixture("gcc.json"), fixture("gcc-2reps.json"))  # 5 against 2
        self.assertIn("too few repetitions: the Mann-Whitney U test cannot reach", few)

    def test_the_cv_warning_once_per_report(self):
        self.assertEqual(self.two.count("cv &ge; 5% (marked !) in "), 1)
        flagged = len(re.findall(r'<td class="num warn">! ', self.two))
        self.assertIn(f"cv &ge; 5% (marked !) in {flagged} of ", self.two)
        self.assertLess(self.two.index("cv &ge; 5%"), self.two.index('<section id="w-ints_out">'))

    def test_one_file_has_no_comparison_text(self):
        one = report(fixture("quick-gcc.json"))
        for text in ("<h2>Files</h2>", "Compared:", "significance", "Ratio = ", "Mann-Whitney", "Overall"):
            self.assertNotIn(text, one)
        self.assertIn("<h2>Run</h2>", one)
        self.assertIn("<h2>Files</h2>", self.two)
        self.assertIn("Mann-Whitney", self.two)

    def test_ci_column_and_error_bars(self):
        one = report(fixture("quick-gcc.json"))  # 6 repetitions: the smallest n with a 95% interval
        self.assertIn("<th>95% CI</th>", one)
        times = iteration_times("quick-gcc.json", "ints_out/obuf")
        median, ordered = statistics.median(times), sorted(times)
        half = max(median - ordered[0], ordered[-1] - median) / median  # n = 6: the interval is [min, max]
        row = one.split("<td>obuf</td>", 1)[1].split("</tr>", 1)[0]
        self.assertIn(f'<td class="num">\u00b1{half * 100:.1f}%</td>', row)
        # 5 repetitions: none.
        five = report(fixture("gcc.json"))
        row = five.split("<td>obuf</td>", 1)[1].split("</tr>", 1)[0]
        self.assertIn('<td class="num">-</td>', row)
        # The bar charts draw an error bar per bar with an interval (Matplotlib's error-bar group id).
        section = one.split('<section id="w-ints_out">', 1)[1].split("</section>", 1)[0]
        self.assertIn('id="LineCollection_1"', section)
        section = five.split('<section id="w-ints_out">', 1)[1].split("</section>", 1)[0]
        self.assertNotIn('id="LineCollection_1"', section)

    def test_tables_golden(self):
        # The tables as the HTML writes them (the charts aside): order, number format, columns.
        for golden, text in (("quick-two.tables.html", self.two),
                             ("file-read-cache.tables.html", report(fixture("file-read-cache.json")))):
            tables = re.findall(r'<h2>[^<]*</h2>|<table class="results">.*?</table>', text, re.S)
            check_golden(self, golden, "\n".join(tables) + "\n")

    def test_reproducible_and_no_local_path(self):
        self.assertEqual(self.sweep, report(fixture("file-read-shm.json")))
        self.assertNotIn(FIXTURES, self.two)

    def test_charts_also_written_with_plot(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "r.html")
            run_ok(self, fixture("sweep-gcc.json"), "--format", "html", "-o", path, "--plot", tmp)
            self.assertEqual(sorted(os.listdir(tmp)), ["ints_out-buf.png", "ints_out-buf.svg", "ints_out.png",
                                                       "ints_out.svg", "r.html"])


def find_chromium():
    chosen = os.environ.get("IOBENCH_CHROMIUM")
    if chosen:
        return shutil.which(chosen)
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if shutil.which(name):
            return shutil.which(name)
    return None


class BrowserTest(unittest.TestCase):
    """The report rendered by headless Chromium: the DOM has the tables and charts, the screenshot is no blank."""

    @classmethod
    def setUpClass(cls):
        cls.chromium = find_chromium()
        if not cls.chromium:
            raise unittest.SkipTest("no Chromium (chromium, chromium-browser or google-chrome on PATH): "
                                    "install Debian's chromium (tools/install-deps.sh) or set IOBENCH_CHROMIUM")

    def chromium_run(self, page, *args):
        with tempfile.TemporaryDirectory() as profile:
            cmd = [self.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                   "--disable-background-networking", "--disable-component-update", "--disable-sync",
                   "--disable-extensions", "--hide-scrollbars", f"--user-data-dir={profile}", *args,
                   "file://" + page]
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
        self.assertEqual(done.returncode, 0, done.stderr[-2000:])
        return done.stdout

    def render(self, name, *fixtures, width=1280):
        """(DOM after loading, screenshot pixels) of the report of `fixtures` in a window `width` wide."""
        from matplotlib import image

        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        page = os.path.join(tmp, f"{name}.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write(report(*[fixture(n) for n in fixtures]))
        dom = self.chromium_run(page, "--dump-dom")
        png = os.path.join(tmp, f"{name}-{width}.png")
        self.chromium_run(page, f"--screenshot={png}", f"--window-size={width},2000")
        keep = os.environ.get("IOBENCH_KEEP_SCREENSHOTS")
        if keep:
            os.makedirs(keep, exist_ok=True)
            shutil.copy(png, keep)
        return dom, image.imread(png)

    def layout(self, width, *fixtures):
        """Per results table of the report, laid out in a window `width` wide: [table width, width of its
        scroll box, right edge of the significance header, width of the page]. A copy of the report gets a
        script that measures them (the report itself has none)."""
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        page = os.path.join(tmp, "measured.html")
        script = ("<script>document.body.setAttribute('data-layout', JSON.stringify("
                  "[...document.querySelectorAll('table.results')].map(t => [t.scrollWidth, "
                  "t.parentElement.clientWidth, Math.max(0, ...[...t.querySelectorAll('th')]"
                  ".filter(h => h.textContent === 'significance').map(h => h.getBoundingClientRect().right)), "
                  "document.documentElement.clientWidth])));</script>")
        with open(page, "w", encoding="utf-8") as f:
            f.write(report(*[fixture(n) for n in fixtures]).replace("</body>", script + "</body>"))
        dom = self.chromium_run(page, "--dump-dom", f"--window-size={width},1000")
        found = re.search(r'data-layout="([^"]*)"', dom)
        self.assertIsNotNone(found, "the measuring script did not run")
        return json.loads(html.unescape(found.group(1)))

    def test_two_file_tables_fit_1400_pixels(self):
        for fixtures in (("quick-gcc.json", "quick-clang-tenth.json"), ("sweep-gcc.json", "sweep-clang.json"),
                         ("gcc.json", "failed.json")):
            tables = self.layout(1400, *fixtures)
            self.assertTrue(tables)
            for table, box, significance, page in tables:
                self.assertLessEqual(table, box, fixtures)  # no horizontal scrolling
                self.assertGreater(significance, 0)
                self.assertLessEqual(significance, page, fixtures)  # the significance column in view
        # At 700 pixels the table scrolls inside its box; the page itself does not.
        for table, box, _, page in self.layout(700, "quick-gcc.json", "quick-clang-tenth.json"):
            self.assertLessEqual(box, page)

    def test_700_pixels(self):
        dom, pixels = self.render("two", "quick-gcc.json", "quick-clang-tenth.json", width=700)
        self.check_not_blank(pixels, 700)

    def check_not_blank(self, pixels, width=1280):
        rgb = pixels[:, :, :3]
        self.assertEqual(rgb.shape[:2], (2000, width))
        ink = (rgb.min(axis=2) < 0.85).mean()  # anything not white or nearly
        self.assertGreater(ink, 0.02, "the screenshot is (nearly) blank")
        # The bars: Matplotlib's first colour, #1f77b4.
        bars = ((abs(rgb[:, :, 0] - 0x1F / 255) < 0.04) & (abs(rgb[:, :, 1] - 0x77 / 255) < 0.04) &
                (abs(rgb[:, :, 2] - 0xB4 / 255) < 0.04)).sum()
        self.assertGreater(bars, 2000, "no bar chart in the first 2000 pixels")

    def test_main_job_report_of_one_file(self):
        dom, pixels = self.render("one", "quick-gcc.json")
        self.assertEqual(dom.count('<table class="results">'), 3)
        self.assertEqual(dom.count("<svg"), 3)
        for text in ("iobench report", "ints_out", "x fastest", "write calls", "GNU 12.2.0", "limit"):
            self.assertIn(text, dom)
        self.check_not_blank(pixels)

    def test_two_files_and_a_sweep(self):
        dom, pixels = self.render("two", "quick-gcc.json", "quick-clang-tenth.json")
        self.assertIn("time/integer", dom)
        self.assertIn("significance", dom)
        self.check_not_blank(pixels)
        dom, pixels = self.render("sweep", "file-read-shm.json")
        self.assertEqual(dom.count("<svg"), 2)
        self.assertIn("skipped: madvise(MADV_HUGEPAGE)", dom)
        self.check_not_blank(pixels)


class EndToEndTest(unittest.TestCase):
    """The main job's command on what the iobench binary of this build writes today."""

    def test_report_of_a_real_run(self):
        binary = os.environ.get("IOBENCH")
        if not binary or not os.path.exists(binary):
            self.skipTest("no iobench binary: set IOBENCH (ctest sets it to this build's iobench)")
        with tempfile.TemporaryDirectory() as tmp:
            results = os.path.join(tmp, "results")
            os.mkdir(results)
            data = os.path.join(results, "run.json")
            done = subprocess.run([binary, "--suite", "quick", "--scale", "0.0005", "--benchmark_filter=^ints_out/",
                                   "--dir", tmp, f"--benchmark_out={data}"], capture_output=True, text=True,
                                  timeout=600, check=False)
            self.assertEqual(done.returncode, 0, done.stderr[-3000:])
            page = os.path.join(results, "run.html")
            run_ok(self, "--format", "html", "-o", page, data)
            with open(page, encoding="utf-8") as f:
                text = f.read()
            self.assertIn('<section id="w-ints_out">', text)
            self.assertIn("<svg", text)
            # Every default counter column is shown where a benchmark's median of it is not 0
            # and left out where it is 0 in every benchmark (read calls of an output workload).
            with open(data, encoding="utf-8") as f:
                rows = [r for r in json.load(f)["benchmarks"] if r["run_type"] == "iteration"]
            from iobench_compare import counters

            unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}

            def measured_enough(name):
                # The sys share is left out of a row whose repetitions each measured less than
                # MIN_SECONDS_FOR_CPU_SHARE (the kernel's tick split is noise there).
                return min(r["iterations"] * r["real_time"] * unit[r["time_unit"]]
                           for r in rows if r["name"] == name) >= counters.MIN_SECONDS_FOR_CPU_SHARE

            shown = 0
            for key in counters.DEFAULT:
                col = counters.column(key)
                names = {r["name"] for r in rows if col.counter in r}
                if key == "sys":
                    names = {name for name in names if measured_enough(name)}
                medians = [statistics.median(r[col.counter] for r in rows if r["name"] == name) for name in names]
                if any(medians):
                    self.assertIn(f"<th>{col.header}</th>", text)
                    shown += 1
                else:
                    self.assertNotIn(f"<th>{col.header}</th>", text)
            self.assertGreater(shown, 0)
            console = run_ok(self, data)
            self.assertIn("ints_out: time per run", console)


if __name__ == "__main__":
    main()
