// The input side: the byte fold and the generated text file_read
// verifies with, ibuf's get_double, the page-cache states, streaming readers
// reading a file far larger than their buffer in bounded memory, wrong
// readers caught, and methods refused at run time (O_DIRECT, io_uring, huge
// pages) reported as skipped with their reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <iobench/byte_fold.hpp>
#include <iobench/error.hpp>
#include "core/engine/case_trial.hpp"
#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "core/os/environment.hpp"
#include "core/os/page_cache.hpp"
#include "data/doubles.hpp"
#include "data/file_text.hpp"
#include "methods/ibuf.hpp"
#include "test_dir.hpp"

#ifdef _WIN32
#include <windows.h>
#endif
#ifdef __linux__
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#endif

namespace iobench {
namespace {

std::vector<char> random_bytes(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::vector<char> v(n);
    for (char& c : v) c = static_cast<char>(gen());
    return v;
}

std::uint64_t fold_of(const std::vector<char>& v) {
    ByteFold f;
    f.update(v.data(), v.size());
    return f.digest();
}

std::string text_of(std::uint64_t size) {
    std::string text;
    random_lines_text(size)([&](std::string_view chunk) { text.append(chunk); });
    return text;
}

TEST(ByteFold, ChunkingDoesNotMatter) {
    const auto data = random_bytes(10'007, 1);
    const std::uint64_t whole = fold_of(data);
    std::mt19937 gen(2);
    for (int round = 0; round < 50; ++round) {
        ByteFold f;
        for (std::size_t at = 0; at < data.size();) {
            const std::size_t n = std::min<std::size_t>(gen() % 41, data.size() - at);
            f.update(data.data() + at, n);
            at += n;
        }
        ASSERT_EQ(f.digest(), whole) << "round " << round;
        ASSERT_EQ(f.bytes(), data.size());
    }
}

TEST(ByteFold, EveryByteItsOrderAndTheLengthCount) {
    const auto data = random_bytes(4096, 3);
    const std::uint64_t base = fold_of(data);
    for (std::size_t at : {0u, 1u, 7u, 8u, 2000u, 4095u}) {
        auto changed = data;
        changed[at] = static_cast<char>(changed[at] ^ 1);
        EXPECT_NE(fold_of(changed), base) << "byte " << at;
    }
    auto swapped = data;
    std::swap_ranges(swapped.begin(), swapped.begin() + 8, swapped.begin() + 8);
    EXPECT_NE(fold_of(swapped), base);
    auto lines_swapped = data;  // two 64-byte blocks exchanged
    std::swap_ranges(lines_swapped.begin() + 128, lines_swapped.begin() + 192, lines_swapped.begin() + 1024);
    EXPECT_NE(fold_of(lines_swapped), base);
    auto longer = data;
    longer.push_back('\0');  // a zero byte more: only the length says so
    EXPECT_NE(fold_of(longer), base);
    EXPECT_NE(ByteFold{}.digest(), fold_of(std::vector<char>(1, '\0')));
}

TEST(FileText, ExactSizePrintableLinesEndingInNewline) {
    for (std::uint64_t size : {0u, 1u, 2u, 127u, 128u, 1000u, 100'000u, (1u << 20) + 3u}) {
        const std::string text = text_of(size);
        ASSERT_EQ(text.size(), size);
        if (size == 0) continue;
        EXPECT_EQ(text.back(), '\n') << size;
        std::size_t line = 0;
        for (char c : text) {
            if (c == '\n') {
                line = 0;
                continue;
            }
            ASSERT_TRUE(c >= ' ' && c <= '~') << static_cast<int>(c);
            ASSERT_LE(++line, 126u);
        }
    }
}

TEST(FileText, TheSameOnEveryPlatform) {
    // The fold of the first MiB: a change of generator, seed or fold shows here.
    const std::string text = text_of(1u << 20);
    ByteFold f;
    f.update(text.data(), text.size());
    EXPECT_EQ(f.digest(), 0xfba699c5ca8a07edULL) << std::hex << f.digest();
    EXPECT_EQ(text.substr(0, 16), "\"FJ#F[+ <oVv=gv5");
}

// --- ibuf::get_double ----------------------------------------------------------

/// A source device over a string (tests only).
struct string_source {
    std::string text;
    std::size_t at = 0;
    std::size_t read_some(char* buf, std::size_t size) {
        const std::size_t n = std::min(size, text.size() - at);
        std::copy_n(text.data() + at, n, buf);
        at += n;
        return n;
    }
};

std::vector<double> parse_all(const std::string& text, std::size_t buffer_size) {
    basic_ibuf<string_source> in(string_source{text}, buffer_size);
    std::vector<double> out;
    double v = 0;
    while (in.get_double(v)) out.push_back(v);
    return out;
}

TEST(IbufDouble, RoundTripsEveryValueAtEveryBufferSize) {
    const std::vector<double> values = random_doubles(300);
    std::string text;
    shortest_doubles_text(values)([&](std::string_view chunk) { text.append(chunk); });
    text += "0.5 -2.25e-3\t1e300\n  7";  // other forms, other white space, no final '\n'
    std::vector<double> want = values;
    want.insert(want.end(), {0.5, -2.25e-3, 1e300, 7.0});
    for (std::size_t size : {1u, 2u, 3u, 7u, 8u, 17u, 24u, 25u, 31u, 64u, 4096u, 0u}) {
        const std::vector<double> got = parse_all(text, size);
        ASSERT_EQ(got.size(), want.size()) << "buffer " << size;
        for (std::size_t i = 0; i < got.size(); ++i)
            ASSERT_EQ(std::bit_cast<std::uint64_t>(got[i]), std::bit_cast<std::uint64_t>(want[i]))
                << "value " << i << ", buffer " << size;
    }
}

TEST(IbufDouble, ErrorsNameTheOffset) {
    for (std::size_t size : {1u, 5u, 4096u}) {
        try {
            parse_all("1.5\n2.5x\n", size);
            FAIL() << "no error";
        } catch (const parse_error& e) {
            EXPECT_NE(std::string(e.what()).find("at byte offset 4"), std::string::npos) << e.what();
        }
        EXPECT_THROW(parse_all(std::string(100, '1') + "\n", size), parse_error);
        EXPECT_THROW(parse_all("1e999\n", size), parse_error);
    }
    EXPECT_TRUE(parse_all(" \n\t", 3).empty());
}

// --- the page cache ------------------------------------------------------------

#ifdef __linux__
TEST(PageCache, ColdDropsTheFilesPagesWhereTheFileSystemAllows) {
    test::TempDir dir;
    const auto path = dir.path() / "f";
    {
        std::ofstream out(path, std::ios::binary);
        out << text_of(4u << 20);
    }
    read_through(path);
    ASSERT_TRUE(resident_fraction(path));
    EXPECT_GT(*resident_fraction(path), 0.9);
    EXPECT_EQ(drop_from_page_cache(path), "fdatasync + posix_fadvise(POSIX_FADV_DONTNEED)");  // the row's label
    const double after = *resident_fraction(path);
    if (filesystem_type(dir.path()) == "tmpfs") {
        EXPECT_GT(after, 0.9) << "tmpfs keeps its pages: they are the file";
    } else {
        EXPECT_LT(after, 0.5) << filesystem_type(dir.path());
    }
}
#endif

#ifdef _WIN32
/// Writes `bytes` bytes of text to `path`.
void write_file(const std::filesystem::path& path, std::size_t bytes) {
    std::ofstream out(path, std::ios::binary);
    out << std::string(bytes, 'x');
}

/// Whether SeProfileSingleProcessPrivilege is enabled in `token`.
bool profile_privilege_enabled(HANDLE token) {
    LUID luid{};
    if (!LookupPrivilegeValueW(nullptr, L"SeProfileSingleProcessPrivilege", &luid)) return false;
    DWORD size = 0;
    GetTokenInformation(token, TokenPrivileges, nullptr, 0, &size);
    std::vector<unsigned char> buf(size);
    if (size == 0 || !GetTokenInformation(token, TokenPrivileges, buf.data(), size, &size)) return false;
    const auto* privileges = reinterpret_cast<const TOKEN_PRIVILEGES*>(buf.data());
    for (DWORD i = 0; i < privileges->PrivilegeCount; ++i) {
        const LUID_AND_ATTRIBUTES& p = privileges->Privileges[i];
        if (p.Luid.LowPart == luid.LowPart && p.Luid.HighPart == luid.HighPart)
            return (p.Attributes & SE_PRIVILEGE_ENABLED) != 0;
    }
    return false;
}

TEST(PageCache, TheNoBufferingOpenIsMadeOnTheFileAndClosed) {
    test::TempDir dir;
    const auto path = dir.path() / "f";
    write_file(path, 1 << 20);
    const std::string fs = purge_cached_pages(path);
    EXPECT_EQ(fs, filesystem_type(dir.path()));  // the file's volume: NTFS on Windows (and under wine)
    // The handle is closed again: nothing keeps an exclusive open out.
    const HANDLE exclusive = CreateFileW(path.c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, OPEN_EXISTING,
                                         FILE_ATTRIBUTE_NORMAL, nullptr);
    ASSERT_NE(exclusive, INVALID_HANDLE_VALUE) << GetLastError();
    CloseHandle(exclusive);
    EXPECT_EQ(std::filesystem::file_size(path), 1u << 20);  // and the file is as it was
}

TEST(PageCache, ANoBufferingOpenThatFailsIsAnErrorNamingTheCallAndTheFile) {
    test::TempDir dir;
    try {
        purge_cached_pages(dir.path() / "missing");
        FAIL() << "a missing file was opened";
    } catch (const io_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("CreateFileW(FILE_FLAG_NO_BUFFERING)("), std::string::npos) << what;
        EXPECT_NE(what.find("missing"), std::string::npos) << what;
        EXPECT_EQ(e.code().value(), ERROR_FILE_NOT_FOUND) << what;
    }
}

TEST(PageCache, TheStandbyListIsPurgedOrWhyNotIsSaidAndThePrivilegeSetBack) {
    HANDLE token = nullptr;
    ASSERT_TRUE(OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token));
    const bool enabled_before = profile_privilege_enabled(token);
    const StandbyPurge purge = purge_standby_list();
    EXPECT_EQ(profile_privilege_enabled(token), enabled_before);  // the token as it was
    CloseHandle(token);
    EXPECT_EQ(purge.purged, purge.why_not.empty()) << purge.why_not;
    if (!wine_version().empty()) {
        // Wine grants the privilege; its NtSetSystemInformation is a stub that
        // returns success for anything (even a request of the wrong size), and
        // is not taken for a purge.
        EXPECT_FALSE(purge.purged);
        EXPECT_NE(purge.why_not.find("a stub"), std::string::npos) << purge.why_not;
    } else if (!purge.purged) {
        // Windows without administrator rights.
        EXPECT_NE(purge.why_not.find("SeProfileSingleProcessPrivilege not held"), std::string::npos) << purge.why_not;
    }
}

TEST(PageCache, TheStandbyListIsNotPurgedWithoutThePrivilege) {
    // The refusal a user without administrator rights meets: the calling
    // thread impersonates a copy of the process's token without
    // SeProfileSingleProcessPrivilege, and AdjustTokenPrivileges says
    // ERROR_NOT_ALL_ASSIGNED (under wine as on Windows).
    HANDLE process = nullptr, restricted = nullptr, impersonation = nullptr;
    ASSERT_TRUE(OpenProcessToken(GetCurrentProcess(), TOKEN_ALL_ACCESS, &process));
    LUID_AND_ATTRIBUTES removed{};
    ASSERT_TRUE(LookupPrivilegeValueW(nullptr, L"SeProfileSingleProcessPrivilege", &removed.Luid));
    ASSERT_TRUE(CreateRestrictedToken(process, 0, 0, nullptr, 1, &removed, 0, nullptr, &restricted)) << GetLastError();
    ASSERT_TRUE(DuplicateToken(restricted, SecurityImpersonation, &impersonation)) << GetLastError();
    ASSERT_TRUE(SetThreadToken(nullptr, impersonation)) << GetLastError();
    const StandbyPurge purge = purge_standby_list();
    RevertToSelf();
    for (HANDLE h : {impersonation, restricted, process}) CloseHandle(h);
    EXPECT_FALSE(purge.purged);
    EXPECT_EQ(purge.why_not, "SeProfileSingleProcessPrivilege not held (administrators hold it)");
}
#endif

// --- file_read through the workload ------------------------------------------

/// Runs `method` on file_read once in `session` and returns verify()'s verdict.
/// `label`, when given, receives the trial's label (how a cold run's pages were dropped).
std::string read_once(Session& session, const char* method, CacheState cache = CacheState::warm,
                      std::size_t buffer_size = 0, std::string* label = nullptr) {
    const Workload* w = find_workload("file_read");
    const Method* m = find_method(method);
    auto trial = trial_for(*w, *m, Params{buffer_size, cache}, session);
    trial->reset();
    trial->run();
    std::string verdict = trial->verify();
    trial->finish();
    if (label) *label = trial->label;
    return verdict;
}

#ifdef _WIN32
TEST(FileRead, ColdIsDroppedByANoBufferingOpenOrSkippedWithTheReason) {
    test::TempDir dir;
    Session session(dir.path(), 1.0, false);
    session.set_input_size(1u << 20);
    std::string label;
    if (!wine_version().empty()) {
        // Under wine neither call drops a page of Linux's page cache (fincore
        // says the file stays resident): the row would be warm, so it is skipped.
        try {
            read_once(session, "ReadFile", CacheState::cold, 0, &label);
            ADD_FAILURE() << "a cold read under wine ran as if the cache had been dropped: " << label;
        } catch (const unavailable_error& e) {
            EXPECT_EQ(std::string(e.what()).rfind("no cold page cache under wine " + wine_version() + ": ", 0), 0u)
                << e.what();
        }
    } else if (const std::string fs = filesystem_type(dir.path()); fs == "NTFS" || fs == "FAT" || fs == "FAT32") {
        EXPECT_EQ(read_once(session, "ReadFile", CacheState::cold, 0, &label), "");
        EXPECT_EQ(label.rfind("cache dropped: FILE_FLAG_NO_BUFFERING open", 0), 0u) << label;
    } else {
        EXPECT_THROW(read_once(session, "ReadFile", CacheState::cold), unavailable_error) << fs;
    }
    EXPECT_EQ(read_once(session, "ReadFile", CacheState::warm, 0, &label), "");  // warm still runs
    EXPECT_EQ(label, "");
}
#endif

#ifdef __linux__
TEST(FileRead, ColdOnAFileSystemThatKeepsEveryPageIsSkippedNotReportedAsCold) {
    // /dev/shm is tmpfs on Linux: its pages are the file and cannot be dropped.
    std::error_code ec;
    const std::filesystem::path shm = "/dev/shm";
    if (!std::filesystem::is_directory(shm, ec) || filesystem_type(shm) != "tmpfs")
        GTEST_SKIP() << "no tmpfs at /dev/shm";
    const std::filesystem::path dir = shm / ("iobench-test-cold-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    {
        Session session(dir, 1.0, false);
        session.set_input_size(1u << 20);
        try {
            read_once(session, "fread", CacheState::cold);
            ADD_FAILURE() << "a cold read on tmpfs ran as if the cache had been dropped";
        } catch (const unavailable_error& e) {
            EXPECT_NE(std::string(e.what()).find("no cold page cache here"), std::string::npos) << e.what();
        }
        EXPECT_EQ(read_once(session, "fread", CacheState::warm), "");  // warm still runs
    }
    std::filesystem::remove_all(dir, ec);
}
#endif

TEST(FileRead, WrongReadersAreCaught) {
    test::TempDir dir;
    Session session(dir.path(), 1.0, false);
    session.set_input_size(100'000);
    const std::string skipped = read_once(session, "broken_skips_block");
    EXPECT_NE(skipped.find("read 95904 bytes"), std::string::npos) << skipped;
    EXPECT_NE(skipped.find("expected 100000 bytes"), std::string::npos) << skipped;
    const std::string swapped = read_once(session, "broken_swaps_words");
    EXPECT_NE(swapped.find("read 100000 bytes"), std::string::npos) << swapped;
    EXPECT_NE(swapped.find("expected 100000 bytes"), std::string::npos) << swapped;
    EXPECT_EQ(read_once(session, "fread"), "");  // portable: read(2) is POSIX only
}

TEST(DoublesIn, ValuesOffInTheirLowBitsAreCaught) {
    test::TempDir dir;
    Session session(dir.path(), 1e-4, false);
    const Method* m = find_method("broken_float_doubles");
    auto trial = trial_for(*find_workload("doubles_in"), *m, {}, session);
    trial->reset();
    trial->run();
    const std::string verdict = trial->verify();
    EXPECT_NE(verdict.find("parsed values differ: value 0 is"), std::string::npos) << verdict;
}

#ifdef __linux__
/// VmHWM (peak resident memory) of this process in KiB.
long peak_rss_kib() {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

/// Resets VmHWM to the current resident size; false where the kernel does not allow it.
bool reset_peak_rss() {
    std::ofstream out("/proc/self/clear_refs");
    out << "5";
    out.flush();
    return static_cast<bool>(out);
}

// A file too large for memory must work for every streaming method: none may
// hold more than its buffer. Checked on a 32 MiB file read with 64 KiB
// buffers: the peak resident memory must not grow by the file's size. The
// methods that map the file (Method::maps_file: mmap_*, boost_mapped_file)
// are only checked for a correct result: the whole file is in their address
// space (clean, reclaimable page-cache pages: a 64-bit system maps files
// larger than its memory, but the pages show in the resident size).
TEST(FileRead, StreamingMethodsReadAFileFarLargerThanTheirBufferInBoundedMemory) {
    if (!reset_peak_rss()) GTEST_SKIP() << "/proc/self/clear_refs cannot reset VmHWM here";
    constexpr std::uint64_t file_size = 32u << 20;
    test::TempDir dir;
    Session session(dir.path(), 1.0, false);
    session.set_input_size(file_size);
    int streaming = 0;
    for (const Method& m : methods()) {
        if (!m.read_bytes || !m.unavailable.empty() || m.family == "zz_broken") continue;
        const std::size_t buffer = m.sizable_buffer ? 64u << 10 : 0;
        // Prepare (the file, the warm-up read) before measuring.
        auto trial = trial_for(*find_workload("file_read"), m, Params{buffer, CacheState::warm}, session);
        trial->reset();
        ASSERT_TRUE(reset_peak_rss());
        const long before = peak_rss_kib();
        try {
            trial->run();
        } catch (const unavailable_error&) {
            continue;  // reported as skipped; the tests of that are below
        }
        const long growth_kib = peak_rss_kib() - before;
        EXPECT_EQ(trial->verify(), "") << m.name;
        trial->finish();
        if (m.maps_file) continue;
        ++streaming;
        EXPECT_LT(growth_kib, 4 * 1024) << m.name << " grew by " << growth_kib << " KiB reading a 32 MiB file";
    }
    EXPECT_GE(streaming, 10);
}

TEST(Unavailable, ODirectOnAFileSystemWithoutItIsSkippedWithTheReason) {
    const Method* m = find_method("read_O_DIRECT");
    ASSERT_NE(m, nullptr);
    try {
        m->read_bytes(Source{"/proc/self/status", 4096});
        FAIL() << "procfs accepted O_DIRECT";
    } catch (const unavailable_error& e) {
        EXPECT_NE(std::string(e.what()).find("O_DIRECT not supported by proc"), std::string::npos) << e.what();
    }
}

TEST(Unavailable, IoUringRefusedByTheKernelIsSkippedWithTheReason) {
    const Method* m = find_method("io_uring_qd4");
    ASSERT_NE(m, nullptr);
    if (!m->unavailable.empty()) GTEST_SKIP() << m->unavailable;
#ifndef __NR_io_uring_setup
    GTEST_SKIP() << "no io_uring_setup system call number in these headers";
#else
    test::TempDir dir;
    const auto path = (dir.path() / "f").string();
    {
        std::ofstream out(path, std::ios::binary);
        out << "hello\n";
    }
    // In a child process, a seccomp filter makes io_uring_setup fail with
    // EPERM, as a container's default profile does; the method must throw
    // unavailable_error (exit 0), not io_error (exit 2) or succeed (exit 3).
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        sock_filter filter[] = {
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        sock_fprog prog{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
        if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
            ::_exit(4);
        try {
            m->read_bytes(Source{path, 0});
        } catch (const unavailable_error& e) {
            const std::string what = e.what();
            ::_exit(what.find("io_uring_queue_init: Operation not permitted") != std::string::npos ? 0 : 5);
        } catch (...) {
            ::_exit(2);
        }
        ::_exit(3);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 4) GTEST_SKIP() << "cannot install a seccomp filter here";
    EXPECT_EQ(WEXITSTATUS(status), 0);
#endif
}

TEST(Unavailable, HugePagesAreMappedOrSkippedWithTheReason) {
    const Method* m = find_method("mmap_MADV_HUGEPAGE");
    ASSERT_NE(m, nullptr);
    test::TempDir dir;
    Session session(dir.path(), 1.0, false);
    session.set_input_size(8u << 20);  // room for huge pages
    for (CacheState cache : {CacheState::cold, CacheState::warm}) {
        try {
            EXPECT_EQ(read_once(session, "mmap_MADV_HUGEPAGE", cache), "");
        } catch (const unavailable_error& e) {
            EXPECT_GT(std::string(e.what()).size(), 20u) << "a reason";
        }
    }
}
#endif

// --- binary_size ---------------------------------------------------------------

TEST(BinarySize, ReportsTheProgramsFileSize) {
#ifdef _WIN32
    const char* method = "WriteFile";
#else
    const char* method = "write";
#endif
    test::TempDir dir;
    Session session(dir.path(), 1e-4, false);
    auto trial = trial_for(*find_workload("binary_size"), *find_method(method), {}, session);
    ASSERT_TRUE(trial->counters.count("binary_size"));
    EXPECT_GT(trial->counters.at("binary_size"), 1000);
    trial->reset();
    trial->run();
    EXPECT_EQ(trial->verify(), "");
    // The program runs in a child process: the runner reports none of this
    // process's call counts or CPU times for it (Runner.AChildsWorkReports...).
    EXPECT_TRUE(trial->work_in_child);
    trial->finish();
}

}  // namespace
}  // namespace iobench
