#include "core/page_cache.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "core/error.hpp"

#ifndef _WIN32
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

void drop_from_page_cache(const std::filesystem::path& path) {
    const std::string p = path.string();
    ReadFd file(p);
    if (::fdatasync(file.fd) != 0) throw_errno("fdatasync", p);
    if (const int rc = ::posix_fadvise(file.fd, 0, 0, POSIX_FADV_DONTNEED); rc != 0)
        throw io_error("posix_fadvise(POSIX_FADV_DONTNEED)", p, std::error_code(rc, std::generic_category()));
}

#else  // _WIN32

std::optional<double> resident_fraction(const std::filesystem::path&) { return std::nullopt; }

void drop_from_page_cache(const std::filesystem::path&) {
    throw unavailable_error("a cold page cache is not implemented on Windows yet");
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
    make_memory_resident(output_bytes);
}

}  // namespace iobench
