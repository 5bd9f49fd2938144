// Below the command line: results files published atomically and
// never replacing earlier ones, generated files that stop at the first failed
// write and never outgrow the room they have, locked working directories and
// the removal of what killed runs left. Real files, real limits, real
// processes (docs/reliability.md).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include <iobench/error.hpp>
#include "app/options.hpp"
#include "core/engine/session.hpp"
#include "core/os/cpu_affinity.hpp"
#include "core/os/workdir.hpp"
#include "core/report/results_file.hpp"
#include "data/checksum.hpp"
#include "test_dir.hpp"

#ifndef _WIN32
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/os/cleanup.hpp"
#endif

namespace iobench {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> names_in(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

/// A generator of `chunks` chunks of `size` bytes that counts how many it made.
Generator counted(std::size_t chunks, std::size_t size, int& made) {
    return [=, &made](const ChunkFn& emit) {
        const std::string chunk(size, 'x');
        for (std::size_t i = 0; i < chunks; ++i) {
            ++made;
            emit(chunk);
        }
    };
}

TEST(PublishFile, NeverReplacesAnEarlierFile) {
    test::TempDir dir;
    const fs::path target = dir.path() / "gcc-12-2026-01-01.json";
    EXPECT_EQ(publish_file(target, "first", Existing::number), target);
    EXPECT_EQ(publish_file(target, "second", Existing::number), dir.path() / "gcc-12-2026-01-01-2.json");
    EXPECT_EQ(publish_file(target, "third", Existing::number), dir.path() / "gcc-12-2026-01-01-3.json");
    EXPECT_EQ(read_all(target), "first");
    EXPECT_EQ(read_all(dir.path() / "gcc-12-2026-01-01-2.json"), "second");
    EXPECT_EQ(read_all(dir.path() / "gcc-12-2026-01-01-3.json"), "third");
    // No temporary file is left.
    EXPECT_EQ(names_in(dir.path()).size(), 3u);
}

TEST(PublishFile, ReplaceModeReplacesInOneStep) {
    test::TempDir dir;
    const fs::path target = dir.path() / "out.json";
    publish_file(target, "old", Existing::replace);
    EXPECT_EQ(publish_file(target, "new", Existing::replace), target);
    EXPECT_EQ(read_all(target), "new");
    EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"out.json"});
}

TEST(PublishFile, ConcurrentWritersGetDistinctCompleteFiles) {
    test::TempDir dir;
    const fs::path target = dir.path() / "r.json";
    constexpr int writers = 8;
    std::vector<std::thread> threads;
    std::vector<fs::path> written(writers);
    std::atomic<bool> go{false};
    for (int i = 0; i < writers; ++i)
        threads.emplace_back([&, i] {
            while (!go.load()) std::this_thread::yield();
            written[i] = publish_file(target, std::string(100000, static_cast<char>('a' + i)), Existing::number);
        });
    go = true;
    for (auto& t : threads) t.join();
    std::set<fs::path> distinct(written.begin(), written.end());
    EXPECT_EQ(distinct.size(), static_cast<std::size_t>(writers));
    for (int i = 0; i < writers; ++i) EXPECT_EQ(read_all(written[i]), std::string(100000, static_cast<char>('a' + i)));
    EXPECT_EQ(names_in(dir.path()).size(), static_cast<std::size_t>(writers));
}

TEST(PublishFile, AMissingDirectoryIsAnErrorNamingThePath) {
    test::TempDir dir;
    const fs::path target = dir.path() / "no-such-dir" / "r.json";
    try {
        publish_file(target, "x", Existing::number);
        FAIL() << "no error";
    } catch (const io_error& e) {
        EXPECT_NE(std::string(e.what()).find((dir.path() / "no-such-dir").string()), std::string::npos) << e.what();
    }
}

TEST(WriteGeneratedFile, NeverOutgrowsTheRoomItIsGiven) {
    test::TempDir dir;
    const fs::path path = dir.path() / "input";
    int made = 0;
    try {
        write_generated_file(path, counted(1000, 100, made), 1000);
        FAIL() << "no error";
    } catch (const std::system_error& e) {
        EXPECT_EQ(e.code(), std::make_error_code(std::errc::no_space_on_device)) << e.what();
    }
    EXPECT_EQ(made, 11);  // ten chunks fit; the eleventh is refused and no more are made
    EXPECT_LE(fs::file_size(path), 1000u);
    // Within the room it writes everything.
    made = 0;
    EXPECT_EQ(write_generated_file(path, counted(10, 100, made), 1000), 1000u);
    EXPECT_EQ(fs::file_size(path), 1000u);
}

TEST(Session, AnInputThatDoesNotFitIsRefusedBeforeItIsGenerated) {
    test::TempDir dir;
    Session session(dir.path(), 1.0, false);
    bool made = false;
    const std::uint64_t absurd = std::uint64_t{1} << 62;  // 4 EiB: no disk has that
    try {
        session.input("huge", absurd, [&](const fs::path&) { made = true; });
        FAIL() << "no error";
    } catch (const space_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("input-huge needs 4611686018427387904 bytes, " + dir.path().string() + " has "),
                  std::string::npos)
            << what;
        EXPECT_NE(what.find(" available"), std::string::npos) << what;
    }
    EXPECT_FALSE(made);
    EXPECT_TRUE(fs::is_empty(dir.path()));
    // One that fits is made.
    const fs::path& small =
        session.input("small", 5, [](const fs::path& p) { std::ofstream(p) << "12345"; });
    EXPECT_EQ(fs::file_size(small), 5u);
}

TEST(Options, ACpuListIsNumbersAndRangesSortedEachOnce) {
    EXPECT_EQ(parse_cpu_list("0"), (std::vector<int>{0}));
    EXPECT_EQ(parse_cpu_list("3,1,1"), (std::vector<int>{1, 3}));
    EXPECT_EQ(parse_cpu_list("0-3,6"), (std::vector<int>{0, 1, 2, 3, 6}));
    EXPECT_EQ(parse_cpu_list("2-2"), (std::vector<int>{2}));
    EXPECT_EQ(parse_cpu_list("1023"), (std::vector<int>{1023}));
    for (const char* bad : {"", ",", "0,", "-1", "1-", "a", "0x1", " 1", "1 ", "1-0", "1024", "0-1024", "1.5", "+1"})
        EXPECT_THROW(parse_cpu_list(bad), usage_error) << bad;
    EXPECT_EQ(cpu_list_text({0, 1, 2, 3, 6, 8, 9}), "0-3,6,8-9");
    EXPECT_EQ(cpu_list_text({5}), "5");
}

TEST(Options, HarnessFlagsAreCheckedAndNamed) {
    auto error_of = [](const std::string& arg) -> std::string {
        try {
            check_harness_flags({arg});
        } catch (const usage_error& e) {
            return e.what();
        }
        return "";
    };
    for (const char* bad : {"--benchmark_repetitions=0", "--benchmark_repetitions=1001", "--benchmark_repetitions=x",
                            "--benchmark_min_time=0", "--benchmark_min_time=nan", "--benchmark_min_time=inf",
                            "--benchmark_out_format=csv", "--benchmark_format=csv", "--benchmark_time_unit=ns",
                            "--benchmark_out=", "--benchmark_counters_tabular=perhaps", "--benchmark_nosuch=1"})
        EXPECT_NE(error_of(bad).find(std::string(bad)), std::string::npos) << bad << ": " << error_of(bad);
    const HarnessFlags ok = check_harness_flags({"--benchmark_repetitions=1000", "--benchmark_min_time=0.01",
                                                 "--benchmark_out=x.json", "--benchmark_filter=ints",
                                                 "--benchmark_enable_random_interleaving=false",
                                                 "--benchmark_display_aggregates_only=false"});
    EXPECT_EQ(ok.out_file, "x.json");
    EXPECT_EQ(ok.filter, "ints");
    EXPECT_EQ(ok.interleave, false);
    EXPECT_FALSE(ok.display_aggregates_only);
    // Only what Google Benchmark should see is passed on: not the file, the
    // filter or the display setting, which iobench applies itself.
    const std::vector<std::string> pass = {"--benchmark_repetitions=1000", "--benchmark_min_time=0.01",
                                           "--benchmark_enable_random_interleaving=false"};
    EXPECT_EQ(ok.pass, pass);
}

TEST(Options, BenchmarkContextKeysJoinTheResultsContextButNoneOfItsOwn) {
    const HarnessFlags ok = check_harness_flags({"--benchmark_context=team=io,commit=abc=1,empty="});
    const std::vector<std::pair<std::string, std::string>> want = {{"team", "io"}, {"commit", "abc=1"}, {"empty", ""}};
    EXPECT_EQ(ok.context, want);
    EXPECT_EQ(ok.pass, std::vector<std::string>{"--benchmark_context=team=io,commit=abc=1,empty="});
    for (const char* bad : {"--benchmark_context=suite=x", "--benchmark_context=team=a,host_name=b",
                            "--benchmark_context=a=1,a=2", "--benchmark_context==1", "--benchmark_context=a",
                            "--benchmark_context=a=1,", "--benchmark_context="})
        EXPECT_THROW(check_harness_flags({bad}), usage_error) << bad;
    // The reserved keys are every key of the results file's context (the spec the JSON is tested against).
    std::ifstream spec_file(std::string(IOBENCH_RESULTS_FORMAT_SPEC));
    const nlohmann::json spec = nlohmann::json::parse(spec_file);
    std::set<std::string> listed, reserved;
    for (const auto& k : spec.at("context_keys")) listed.insert(k.at("key").get<std::string>());
    for (std::string_view k : reserved_context_keys()) reserved.insert(std::string(k));
    EXPECT_EQ(reserved, listed);
}

TEST(Options, EveryHarnessFlagIsDeclaredOnceAndTheHelpComesFromTheTable) {
    std::set<std::string_view> names;
    const std::string help = harness_flags_help();
    for (const HarnessFlagSpec& f : harness_flag_specs()) {
        EXPECT_TRUE(names.insert(f.name).second) << f.name << " declared twice";
        EXPECT_EQ(f.name.rfind("--benchmark_", 0), 0u) << f.name;
        // A listed flag is in --help with its syntax; an unlisted one is not.
        const std::string usage = std::string(f.name) + "=" + std::string(f.syntax) + " ";
        EXPECT_EQ(help.find(usage) != std::string::npos, !f.help.empty()) << f.name;
        EXPECT_EQ(help.find("{"), std::string::npos) << "an unformatted placeholder in: " << help;
        // Every flag the table has is accepted (or refused with a reason of its own, not as unknown).
        try {
            check_harness_flags({std::string(f.name)});
        } catch (const usage_error& e) {
            EXPECT_EQ(std::string(e.what()).find("unrecognized"), std::string::npos) << e.what();
        }
    }
    EXPECT_NE(help.find("(1..1000;"), std::string::npos) << help;  // max_repetitions, formatted in
    EXPECT_GE(names.size(), 7u);
}

#ifndef _WIN32

/// Runs `body` in a child process with a file-size limit of `bytes` and
/// SIGXFSZ ignored (as iobench does); returns the child's exit status.
template <class F>
int with_file_size_limit(rlim_t bytes, F body) {
    const pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit limit {
            bytes, bytes
        };
        setrlimit(RLIMIT_FSIZE, &limit);
        _exit(body());
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

TEST(WriteGeneratedFile, StopsAtTheFirstFailedWrite) {
    test::TempDir dir;
    const fs::path path = dir.path() / "input";
    // The child reports: 0 = std::system_error EFBIG after at most 3 chunks of 64 KiB
    // under a 128 KiB limit; anything else is a failure code.
    const int status = with_file_size_limit(128 * 1024, [&] {
        int made = 0;
        try {
            write_generated_file(path, counted(10000, 64 * 1024, made), std::nullopt);
        } catch (const std::system_error& e) {
            if (e.code() != std::error_code(EFBIG, std::generic_category())) return 2;
            return made <= 3 ? 0 : 3;
        }
        return 1;
    });
    EXPECT_EQ(status, 0) << "1: no error, 2: another error, 3: went on generating";
}

TEST(Session, AnOutputThatDoesNotFitIsRefusedWithTheNumbers) {
    test::TempDir dir;
    const int status = with_file_size_limit(64 * 1024, [&] {
        Session session(dir.path(), 1.0, false);
        int made = 0;
        try {
            session.expected("big", counted(1000, 4096, made));
        } catch (const space_error& e) {
            const std::string what = e.what();
            if (what.find("the output needs more than 65536 bytes, " + dir.path().string()) == std::string::npos)
                return 2;
            if (what.find("(the file-size limit is 65536 bytes)") == std::string::npos) return 3;
            return made <= 17 ? 0 : 4;  // stopped once it outgrew the room
        }
        return 1;
    });
    EXPECT_EQ(status, 0) << "1: no error, 2/3: message, 4: went on generating";
}

TEST(PublishFile, AFullDiskLeavesNothingAndKeepsEarlierResults) {
    test::TempDir dir;
    const fs::path target = dir.path() / "r.json";
    publish_file(target, "earlier", Existing::number);
    const int status = with_file_size_limit(4096, [&] {
        try {
            publish_file(target, std::string(10000, 'x'), Existing::number);
        } catch (const io_error& e) {
            const std::string what = e.what();
            if (what.find("write(" + dir.path().string() + "/.r.json.iobench-") == std::string::npos) return 2;
            return e.code() == std::error_code(EFBIG, std::generic_category()) ? 0 : 3;
        }
        return 1;
    });
    EXPECT_EQ(status, 0) << "1: no error, 2: path not named, 3: another error";
    EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"r.json"});
    EXPECT_EQ(read_all(target), "earlier");
}

TEST(StandardDescriptors, AClosedOneBecomesTheNullDevice) {
    const pid_t pid = fork();
    if (pid == 0) {
        close(1);
        const int opened = ensure_standard_descriptors();
        struct stat got {}, null {};
        if (fstat(1, &got) != 0 || stat("/dev/null", &null) != 0) _exit(1);
        // The next file opened is not standard output.
        const int fd = open("/dev/null", O_RDONLY);
        _exit(opened == 2 && got.st_rdev == null.st_rdev && fd > 2 ? 0 : 2);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST(WorkDir, AKilledRunsDirectoryIsRemovedALiveOneIsNot) {
    test::TempDir base;
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    const pid_t pid = fork();
    if (pid == 0) {
        WorkDir dir(base.path());
        std::ofstream(dir.path() / "input-x") << "data";
        char c = 1;
        if (write(ready[1], &c, 1) != 1) _exit(1);
        pause();  // until killed
        _exit(0);
    }
    char c = 0;
    ASSERT_EQ(read(ready[0], &c, 1), 1);
    const std::vector<std::string> before = names_in(base.path());
    ASSERT_EQ(before.size(), 1u);
    EXPECT_EQ(before[0].rfind("iobench-" + std::to_string(pid) + "-", 0), 0u) << before[0];
    EXPECT_TRUE(remove_stale(base.path()).empty());  // the run lives: its lock is held
    EXPECT_EQ(names_in(base.path()), before);
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    const std::vector<StaleEntry> removed = remove_stale(base.path());
    ASSERT_EQ(removed.size(), 1u);
    EXPECT_EQ(removed[0].pid, pid);
    EXPECT_EQ(removed[0].path, base.path() / before[0]);
    EXPECT_TRUE(fs::is_empty(base.path()));
    close(ready[0]);
    close(ready[1]);
}

TEST(WorkDir, IsRemovedUnlessKept) {
    test::TempDir base;
    fs::path path;
    {
        WorkDir dir(base.path());
        path = dir.path();
        EXPECT_TRUE(fs::exists(path / "lock"));
    }
    EXPECT_FALSE(fs::exists(path));
    {
        WorkDir dir(base.path());
        dir.keep();
        path = dir.path();
        std::ofstream(path / "input-x") << "data";
    }
    EXPECT_TRUE(fs::exists(path / "input-x"));
    EXPECT_FALSE(fs::exists(path / "lock"));
    EXPECT_TRUE(remove_stale(base.path()).empty());  // kept, not stale
    EXPECT_TRUE(fs::exists(path / "input-x"));
}

/// Runs remove_stale(dir) in a child process; fails when it takes longer than
/// 20 s (a FIFO opened for reading would block it for ever). Returns the
/// child's exit status (0: it returned).
int remove_stale_in_child(const fs::path& dir) {
    const pid_t pid = fork();
    if (pid == 0) {
        remove_stale(dir);
        _exit(0);
    }
    for (int i = 0; i < 2000; ++i) {
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
        usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    ADD_FAILURE() << "remove_stale(" << dir << ") blocked for 20 s";
    return -1;
}

/// Sets the modification time of `path` to `seconds` ago.
void age(const fs::path& path, long seconds) {
    struct timespec times[2];
    clock_gettime(CLOCK_REALTIME, &times[0]);
    times[0].tv_sec -= seconds;
    times[1] = times[0];
    ASSERT_EQ(utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW), 0) << path;
}

TEST(WorkDir, APlantedFifoOrLinkNeitherBlocksNorIsFollowed) {
    // A FIFO named like a lock hung every run sharing the directory.
    test::TempDir base;
    const fs::path elsewhere = base.path() / "elsewhere";
    fs::create_directory(elsewhere);
    std::ofstream(elsewhere / "free") << "an unlocked regular file";
    fs::create_directory(base.path() / "iobench-1-deadbeef");
    ASSERT_EQ(mkfifo((base.path() / "iobench-1-deadbeef" / "lock").c_str(), 0600), 0);
    fs::create_directory(base.path() / "iobench-2-deadbeef");
    fs::create_symlink(elsewhere / "free", base.path() / "iobench-2-deadbeef" / "lock");
    fs::create_directory_symlink(elsewhere, base.path() / "iobench-3-deadbeef");
    std::ofstream(elsewhere / "lock") << "";  // (what the linked "directory" holds: a free lock)
    ASSERT_EQ(mkfifo((base.path() / ".r.json.iobench-4-deadbeef.partial").c_str(), 0600), 0);
    fs::create_symlink(elsewhere / "free", base.path() / ".r.json.iobench-5-deadbeef.partial");
    ASSERT_EQ(mkfifo((base.path() / ".r.json.iobench-6-deadbeef.new").c_str(), 0600), 0);
    age(base.path() / ".r.json.iobench-6-deadbeef.new", 3600);
    const std::vector<std::string> before = names_in(base.path());
    EXPECT_EQ(remove_stale_in_child(base.path()), 0);
    EXPECT_EQ(names_in(base.path()), before);  // nothing removed, nothing followed
    EXPECT_TRUE(fs::exists(elsewhere / "free"));
    EXPECT_TRUE(fs::exists(elsewhere / "lock"));
}

TEST(WorkDir, WhatAKilledRunLeftBeforeLockingIsRemovedOnceOld) {
    // Killed between creating lock.new (or a results file's .new
    // name) and locking it, a run left what no later run removed.
    test::TempDir base;
    const fs::path old_dir = base.path() / "iobench-11-0123abcd";
    const fs::path young_dir = base.path() / "iobench-12-0123abcd";
    for (const fs::path& dir : {old_dir, young_dir}) {
        fs::create_directory(dir);
        std::ofstream(dir / "lock.new") << "";
    }
    age(old_dir / "lock.new", stale_fresh_seconds + 60);
    const fs::path old_new = base.path() / ".r.json.iobench-13-0123abcd.new";
    const fs::path young_new = base.path() / ".r.json.iobench-14-0123abcd.new";
    std::ofstream(old_new) << "";
    std::ofstream(young_new) << "";
    age(old_new, stale_fresh_seconds + 60);
    // A kept directory (no lock at all) stays, however old.
    const fs::path kept = base.path() / "iobench-15-0123abcd";
    fs::create_directory(kept);
    std::ofstream(kept / "input-x") << "data";
    age(kept / "input-x", 86400);
    const std::vector<StaleEntry> removed = remove_stale(base.path());
    std::set<std::string> paths;
    for (const StaleEntry& e : removed) paths.insert(e.path.filename().string());
    EXPECT_EQ(paths, (std::set<std::string>{"iobench-11-0123abcd", ".r.json.iobench-13-0123abcd.new"}));
    EXPECT_FALSE(fs::exists(old_dir));
    EXPECT_FALSE(fs::exists(old_new));
    EXPECT_TRUE(fs::exists(young_dir / "lock.new"));  // may be a live run's, about to lock it
    EXPECT_TRUE(fs::exists(young_new));
    EXPECT_TRUE(fs::exists(kept / "input-x"));
}

TEST(WorkDir, OnlyItsUserCanCreateFilesInIt) {
    // Whatever the umask: nothing can be planted in a run's directory by others.
    test::TempDir base;
    const mode_t old_mask = umask(0);
    struct stat st {};
    {
        WorkDir dir(base.path());
        ASSERT_EQ(stat(dir.path().c_str(), &st), 0);
    }
    umask(old_mask);
    EXPECT_EQ(st.st_mode & 07777, 0700u);
}

TEST(WorkDir, AnotherRunsProbeIsNotTakenForAStaleFile) {
    // The --dir probe was named like a temporary results file
    // (.partial) but not locked, so a run starting at that moment removed it
    // as a dead run's ("left by process N that no longer runs").
    test::TempDir base;
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    const pid_t pid = fork();  // another run, caught between creating its probe and removing it
    if (pid == 0) {
        std::ofstream(probe_name_for(base.path())) << "";
        char c = 1;
        if (write(ready[1], &c, 1) != 1) _exit(1);
        pause();
        _exit(0);
    }
    char c = 0;
    ASSERT_EQ(read(ready[0], &c, 1), 1);
    const std::vector<std::string> before = names_in(base.path());
    ASSERT_EQ(before.size(), 1u);
    EXPECT_TRUE(remove_stale(base.path()).empty());
    EXPECT_EQ(names_in(base.path()), before);
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    close(ready[0]);
    close(ready[1]);
    EXPECT_EQ(probe_directory(base.path()), "");
    EXPECT_EQ(names_in(base.path()), before);  // its own probe is gone
    // Why a directory cannot take files is said.
    std::ofstream(base.path() / "file") << "";
    EXPECT_EQ(probe_directory(base.path() / "file"), std::make_error_code(std::errc::not_a_directory).message());
}

TEST(WorkDir, AnotherUsersEntriesAreLeftAloneAndNamedOnce) {
    if (geteuid() != 0) GTEST_SKIP() << "needs root to give files to another user (uid 4242)";
    test::TempDir base;
    const fs::path dir = base.path() / "iobench-21-0123abcd";
    fs::create_directory(dir);
    std::ofstream(dir / "lock") << "";  // free: a dead run's, but not ours
    const fs::path partial = base.path() / ".r.json.iobench-22-0123abcd.partial";
    std::ofstream(partial) << "";
    for (const fs::path& p : {dir / "lock", dir, partial}) ASSERT_EQ(lchown(p.c_str(), 4242, 4242), 0) << p;
    std::vector<fs::path> others;
    EXPECT_TRUE(remove_stale(base.path(), &others).empty());
    EXPECT_TRUE(fs::exists(dir / "lock"));
    EXPECT_TRUE(fs::exists(partial));
    EXPECT_EQ(others.size(), 2u);
    const std::string note = left_alone_note(base.path(), others);
    EXPECT_NE(note.find("iobench: left "), std::string::npos) << note;
    EXPECT_NE(note.find(" and 1 more alone in " + base.path().string() + ": they are of another user"),
              std::string::npos) << note;
    EXPECT_EQ(left_alone_note(base.path(), others), "");  // said once
}

#endif  // !_WIN32

}  // namespace
}  // namespace iobench
