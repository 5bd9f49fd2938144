#include "workloads/page_cache.hpp"

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

void remove_and_settle(const std::filesystem::path& path) {
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
}

}  // namespace iobench
