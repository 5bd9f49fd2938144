#include "core/os/page_cache.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <iobench/error.hpp>
#include "core/os/environment.hpp"

#ifdef _WIN32
#include <io.h>  // _commit, _fileno
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace iobench {

#ifndef _WIN32

namespace {

/// A read-only descriptor that closes itself.
struct ReadFd {
    int fd;
    explicit ReadFd(const std::string& path) : fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
        if (fd < 0) throw_errno("open", path);
    }
    ~ReadFd() { ::close(fd); }
    ReadFd(const ReadFd&) = delete;
    ReadFd& operator=(const ReadFd&) = delete;
};

}  // namespace

std::optional<double> resident_fraction(const std::filesystem::path& path) {
    const std::string p = path.string();
    ReadFd file(p);
    struct stat st {};
    if (::fstat(file.fd, &st) != 0) throw_errno("fstat", p);
    if (st.st_size <= 0) return std::nullopt;
    const auto size = static_cast<std::size_t>(st.st_size);
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, file.fd, 0);
    if (map == MAP_FAILED) throw_errno("mmap", p);
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> pages((size + page - 1) / page);
    const int rc = ::mincore(map, size, pages.data());
    const int err = errno;
    ::munmap(map, size);
    if (rc != 0) throw io_error("mincore", p, std::error_code(err, std::generic_category()));
    std::size_t resident = 0;
    for (unsigned char v : pages) resident += v & 1u;
    return static_cast<double>(resident) / static_cast<double>(pages.size());
}

std::string drop_from_page_cache(const std::filesystem::path& path) {
    const std::string p = path.string();
    ReadFd file(p);
    if (::fdatasync(file.fd) != 0) throw_errno("fdatasync", p);
    if (const int rc = ::posix_fadvise(file.fd, 0, 0, POSIX_FADV_DONTNEED); rc != 0)
        throw io_error("posix_fadvise(POSIX_FADV_DONTNEED)", p, std::error_code(rc, std::generic_category()));
    return "fdatasync + posix_fadvise(POSIX_FADV_DONTNEED)";
}

#else  // _WIN32

namespace {

/// A handle that closes itself.
struct Handle {
    HANDLE h = nullptr;
    Handle() = default;
    explicit Handle(HANDLE handle) : h(handle) {}
    ~Handle() {
        if (h != nullptr && h != INVALID_HANDLE_VALUE) CloseHandle(h);
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
};

/// The system's message for a Win32 error code.
std::string message_of(DWORD err) { return std::system_category().message(static_cast<int>(err)); }

/// The NTSTATUS NtSetSystemInformation returns when the caller's token lacks
/// the privilege (ntstatus.h; not included: it clashes with windows.h).
constexpr LONG status_privilege_not_held = static_cast<LONG>(0xC0000061);

/// File systems whose non-cached open purges a file's cached pages (purge_cached_pages).
bool purges_on_uncached_open(const std::string& fs) { return fs == "NTFS" || fs == "FAT" || fs == "FAT32"; }

}  // namespace

std::optional<double> resident_fraction(const std::filesystem::path&) { return std::nullopt; }

std::string purge_cached_pages(const std::filesystem::path& path) {
    Handle file(CreateFileW(path.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                            OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_NO_BUFFERING, nullptr));
    if (file.h == INVALID_HANDLE_VALUE) {
        const DWORD err = GetLastError();
        if (err == ERROR_INVALID_PARAMETER || err == ERROR_NOT_SUPPORTED)
            throw unavailable_error("no cold page cache here: the volume refuses FILE_FLAG_NO_BUFFERING (CreateFileW: " +
                                    message_of(err) + ")");
        throw io_error("CreateFileW(FILE_FLAG_NO_BUFFERING)", path.string(),
                       std::error_code(static_cast<int>(err), std::system_category()));
    }
    wchar_t name[MAX_PATH + 1] = {};
    std::string fs;
    if (GetVolumeInformationByHandleW(file.h, nullptr, 0, nullptr, nullptr, nullptr, name, MAX_PATH + 1))
        for (const wchar_t* c = name; *c != L'\0'; ++c) fs += static_cast<char>(*c < 128 ? *c : '?');
    return fs;
}

StandbyPurge purge_standby_list() {
    // The token the kernel checks: the thread's when it impersonates, else the process's.
    Handle token;
    if (!OpenThreadToken(GetCurrentThread(), TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, TRUE, &token.h)) {
        token.h = nullptr;
        const DWORD err = GetLastError();
        if (err != ERROR_NO_TOKEN)
            return {false, "the thread's token cannot be opened (OpenThreadToken: " + message_of(err) + ")"};
        if (!OpenProcessToken(GetCurrentProcess(), TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, &token.h)) {
            token.h = nullptr;
            return {false, "the process's token cannot be opened (OpenProcessToken: " + message_of(GetLastError()) + ")"};
        }
    }
    TOKEN_PRIVILEGES wanted{};
    wanted.PrivilegeCount = 1;
    wanted.Privileges[0].Attributes = SE_PRIVILEGE_ENABLED;
    if (!LookupPrivilegeValueW(nullptr, L"SeProfileSingleProcessPrivilege", &wanted.Privileges[0].Luid))
        return {false, "SeProfileSingleProcessPrivilege is unknown here (LookupPrivilegeValueW: " +
                           message_of(GetLastError()) + ")"};
    TOKEN_PRIVILEGES previous{};
    DWORD previous_size = 0;
    SetLastError(ERROR_SUCCESS);
    const BOOL adjusted = AdjustTokenPrivileges(token.h, FALSE, &wanted, sizeof previous, &previous, &previous_size);
    const DWORD adjust_err = GetLastError();  // ERROR_NOT_ALL_ASSIGNED: the token does not hold it
    if (!adjusted)
        return {false, "SeProfileSingleProcessPrivilege cannot be enabled (AdjustTokenPrivileges: " +
                           message_of(adjust_err) + ")"};
    if (adjust_err == ERROR_NOT_ALL_ASSIGNED)
        return {false, "SeProfileSingleProcessPrivilege not held (administrators hold it)"};

    StandbyPurge result;
    using set_information_fn = LONG(NTAPI*)(ULONG, PVOID, ULONG);
    const HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    const auto set_information = ntdll ? reinterpret_cast<set_information_fn>(reinterpret_cast<void*>(
                                             GetProcAddress(ntdll, "NtSetSystemInformation")))
                                       : nullptr;
    constexpr ULONG system_memory_list_information = 80;
    ULONG command = 4;  // MemoryPurgeStandbyList
    if (set_information == nullptr) {
        result.why_not = "ntdll.dll has no NtSetSystemInformation";
    } else if (set_information(system_memory_list_information, &command, 0) == 0) {
        // A request of the wrong size must be refused: a call that accepts it is a stub.
        result.why_not = "NtSetSystemInformation accepts a request of the wrong size here: a stub (wine's is), "
                         "which purges nothing";
    } else if (const LONG status = set_information(system_memory_list_information, &command, sizeof command);
               status == 0) {
        result.purged = true;
    } else if (status == status_privilege_not_held) {
        result.why_not = "SeProfileSingleProcessPrivilege not held (NtSetSystemInformation: STATUS_PRIVILEGE_NOT_HELD)";
    } else {
        result.why_not = fmt::format("NtSetSystemInformation(SystemMemoryListInformation) failed: NTSTATUS 0x{:08X}",
                                     static_cast<unsigned long>(status));
    }
    // The token as it was: the privilege disabled again if it was.
    if (previous.PrivilegeCount > 0) AdjustTokenPrivileges(token.h, FALSE, &previous, 0, nullptr, nullptr);
    return result;
}

std::string drop_from_page_cache(const std::filesystem::path& path) {
    if (const std::string wine = wine_version(); !wine.empty())
        throw unavailable_error("no cold page cache under wine " + wine +
                                ": opening the file with FILE_FLAG_NO_BUFFERING drops none of its pages from Linux's "
                                "page cache there, and the standby-list purge (NtSetSystemInformation) is a stub");
    const std::string fs = purge_cached_pages(path);
    if (!purges_on_uncached_open(fs))
        throw unavailable_error("no cold page cache here: " + (fs.empty() ? std::string("this file system") : fs) +
                                " is not known to purge a file's cached pages when it is opened with "
                                "FILE_FLAG_NO_BUFFERING (NTFS and FAT do)");
    const StandbyPurge standby = purge_standby_list();
    if (standby.purged) return "FILE_FLAG_NO_BUFFERING open + standby list purge";
    return "FILE_FLAG_NO_BUFFERING open; standby list not purged: " + standby.why_not;
}

#endif

void read_through(const std::filesystem::path& path) {
    const std::string p = path.string();
    std::FILE* f = std::fopen(p.c_str(), "rb");
    if (!f) throw_errno("fopen", p);
    std::setvbuf(f, nullptr, _IONBF, 0);  // straight into our buffer
    std::vector<char> buf(1 << 20);
    while (std::fread(buf.data(), 1, buf.size(), f) == buf.size()) {
    }
    const bool failed = std::ferror(f) != 0;
    const int err = errno;
    std::fclose(f);
    if (failed) throw io_error("fread", p, std::error_code(err, std::generic_category()));
}

void write_zero_file(const std::filesystem::path& path, std::uint64_t bytes) {
    const std::string p = path.string();
    std::FILE* f = std::fopen(p.c_str(), "wb");
    if (!f) throw_errno("fopen", p);
    std::setvbuf(f, nullptr, _IONBF, 0);  // each 1 MiB straight to write(2)
    const std::vector<char> zeros(std::size_t{1} << 20);
    const char* failed = nullptr;  // the call that failed, with errno in err
    int err = 0;
    auto check = [&](bool ok, const char* call) {
        if (ok || failed) return;
        failed = call;
        err = errno;
    };
    for (std::uint64_t left = bytes; left > 0 && !failed;) {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, zeros.size()));
        check(std::fwrite(zeros.data(), 1, n, f) == n, "fwrite");
        left -= n;
    }
#ifdef _WIN32
    if (!failed) check(::_commit(::_fileno(f)) == 0, "_commit");
#else
    if (!failed) check(::fsync(::fileno(f)) == 0, "fsync");
#endif
    check(std::fclose(f) == 0, "fclose");
    if (failed) {
        std::error_code ec;
        std::filesystem::remove(path, ec);  // a full disk keeps no half-written file
        throw io_error(failed, p, std::error_code(err, std::generic_category()));
    }
}

void make_memory_resident(std::uint64_t bytes) {
#ifdef __linux__
    constexpr std::uint64_t huge_page = 2u << 20;
    if (bytes < (16u << 20)) return;
    std::uint64_t available = 0;
    if (std::FILE* f = std::fopen("/proc/meminfo", "re")) {
        char line[256];
        unsigned long long kib = 0;
        while (std::fgets(line, sizeof line, f))
            if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) available = kib * 1024;
        std::fclose(f);
    }
    std::uint64_t size = (bytes + huge_page - 1) / huge_page * huge_page + huge_page;
    // At most half the available memory, and 4 GiB (the largest output, endl's, is 1.75 GB).
    const std::uint64_t cap = std::min<std::uint64_t>(available / 2, std::uint64_t{4} << 30);
    if (size > cap) size = cap / huge_page * huge_page;
    if (size == 0) return;
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return;
    ::madvise(p, size, MADV_HUGEPAGE);  // refused where THP is off: 4 KiB pages then
    auto* bytes_p = static_cast<volatile char*>(p);
    for (std::uint64_t off = 0; off < size; off += 4096) bytes_p[off] = 1;
    ::munmap(p, size);
#else
    (void)bytes;
#endif
}

bool warm_page_cache(const std::filesystem::path& path, std::uint64_t bytes) {
#ifdef __linux__
    if (bytes < (16u << 20)) return true;
    // At the output's own path, which the run registered for removal on an
    // interrupt (core/os/cleanup.hpp): a signal meanwhile leaves nothing.
    const std::string scratch = path.string();
    const int fd = ::open(scratch.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    static const std::vector<char> zeros(std::size_t{1} << 20);
    bool ok = true;
    for (std::uint64_t left = bytes; ok && left > 0;) {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, zeros.size()));
        ok = ::write(fd, zeros.data(), n) == static_cast<ssize_t>(n);
        left -= n;
    }
    ok = ::close(fd) == 0 && ok;
    ok = ::unlink(scratch.c_str()) == 0 && ok;
    return ok;
#else
    (void)path;
    (void)bytes;
    return true;
#endif
}

void remove_and_settle(const std::filesystem::path& path, std::uint64_t output_bytes) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
#ifndef _WIN32
    const std::string dir = path.parent_path().empty() ? std::string(".") : path.parent_path().string();
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) throw_errno("open", dir);
    const int rc = ::syncfs(fd);
    const int err = errno;
    ::close(fd);
    if (rc != 0) throw io_error("syncfs", dir, std::error_code(err, std::generic_category()));
#endif
    // Last, so that the run starts right after the scratch file is removed.
    if (!warm_page_cache(path, output_bytes)) make_memory_resident(output_bytes);
}

}  // namespace iobench
