// mmap: reading a file by mapping it (mmap(2) PROT_READ, MAP_SHARED) and
// scanning the mapping: no read calls and no copy, but a page fault per page
// (or per fault-around batch) the first time it is touched -- the seed's
// "FileMapping generates a lot of page faults". Variants: MAP_POPULATE
// (every page table entry filled inside mmap), madvise(MADV_SEQUENTIAL)
// (aggressive read-ahead, pages dropped behind the scan), and
// madvise(MADV_HUGEPAGE) (2 MiB mappings where the page cache holds huge
// folios). The whole file is mapped at once (Method::maps_file): no buffer to
// size. mmap_from_chars parses integers and doubles straight from the mapping
// with std::from_chars. POSIX only; Windows' counterpart is MapViewOfFile.
#include <string>
#include <vector>

#include <iobench/method.hpp>

#ifndef _WIN32
#include <sys/mman.h>
#include <sys/stat.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <iobench/byte_fold.hpp>
#include <iobench/error.hpp>
#include "methods/posix_file.hpp"
#endif

namespace iobench {
namespace {

#ifndef _WIN32

/// The whole file at `path` mapped read-only (MAP_SHARED | `flags`); unmapped
/// when destroyed. An empty file is not mapped (mmap refuses length 0).
class Mapping {
public:
    Mapping(const std::string& path, int flags) : file_(open_file(path)) {
        struct stat st {};
        if (::fstat(file_.get(), &st) != 0) throw_errno("fstat", path);
        size_ = static_cast<std::size_t>(st.st_size);
        if (size_ == 0) return;
        void* p = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED | flags, file_.get(), 0);
        if (p == MAP_FAILED) throw_errno("mmap", path);
        data_ = static_cast<const char*>(p);
    }
    ~Mapping() {
        if (data_) ::munmap(const_cast<char*>(data_), size_);
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;

    const char* data() const { return data_; }
    std::size_t size() const { return size_; }
    const std::string& path() const { return file_.path(); }

    /// madvise(advice) over the whole mapping. Throws `io_error`.
    void advise(int advice, const char* name) const {
        if (data_ && ::madvise(const_cast<char*>(data_), size_, advice) != 0) throw_errno(name, path());
    }

private:
    unique_fd file_;
    const char* data_ = nullptr;
    std::size_t size_ = 0;
};

/// Maps the file with `Flags`, applies madvise(`Advice`) unless it is -1,
/// and folds every byte of the mapping.
template <int Flags, int Advice>
ReadResult mmap_read(const Source& source) {
    Mapping map(source.path, Flags);
    if constexpr (Advice != -1) map.advise(Advice, "madvise");
    ByteFold fold;
    fold.update(map.data(), map.size());
    return fold.result();
}

/// Kilobytes of file pages this process maps with PMD (huge) entries:
/// FilePmdMapped + ShmemPmdMapped of /proc/self/smaps_rollup; -1 when the
/// kernel does not say.
long long pmd_mapped_kib() {
    std::ifstream in("/proc/self/smaps_rollup");
    if (!in) return -1;
    long long total = -1;
    for (std::string line; std::getline(in, line);) {  // the first line is the address range
        for (const char* key : {"FilePmdMapped:", "ShmemPmdMapped:"}) {
            if (line.rfind(key, 0) == 0) total = (total < 0 ? 0 : total) + std::atoll(line.c_str() + std::strlen(key));
        }
    }
    return total;
}

/// The first line of a sysfs file, "" when it cannot be read.
std::string sysfs_line(const char* path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

/// mmap + madvise(MADV_HUGEPAGE) + scan. Skipped (unavailable_error) where
/// transparent huge pages are disabled, where madvise refuses, and where the
/// kernel mapped no huge page of the file after all (a file system whose page
/// cache holds no huge folios, tmpfs without huge=, or a page cache filled
/// with small folios before): then the run was a plain mmap scan and is not
/// reported under this name. The check reads /proc/self/smaps_rollup before
/// and after the scan (a page-table walk: about a millisecond per GiB mapped,
/// inside the measurement).
ReadResult mmap_hugepage_read(const Source& source) {
    const std::string thp = sysfs_line("/sys/kernel/mm/transparent_hugepage/enabled");
    if (thp.find("[never]") != std::string::npos)
        throw unavailable_error("transparent huge pages are disabled (/sys/kernel/mm/transparent_hugepage/enabled: " +
                                thp + ")");
#ifdef MADV_HUGEPAGE
    const long long before = pmd_mapped_kib();
    Mapping map(source.path, 0);
    if (map.data() && ::madvise(const_cast<char*>(map.data()), map.size(), MADV_HUGEPAGE) != 0)
        throw unavailable_error(std::string("madvise(MADV_HUGEPAGE) refused: ") + std::strerror(errno));
    ByteFold fold;
    fold.update(map.data(), map.size());
    const long long after = pmd_mapped_kib();
    if (map.size() >= (std::size_t{2} << 20) && before >= 0 && after <= before) {
        const std::string fs = filesystem_type(std::filesystem::path(source.path).parent_path());
        throw unavailable_error(
            "madvise(MADV_HUGEPAGE) accepted, but the kernel mapped no huge page of the file on " + fs +
            (fs == "tmpfs" ? " (/sys/kernel/mm/transparent_hugepage/shmem_enabled: " +
                                 sysfs_line("/sys/kernel/mm/transparent_hugepage/shmem_enabled") + ")"
                           : " (its page cache held the file in small pages: read before without the advice, "
                             "or a file system without large folios)"));
    }
    return fold.result();
#else
    (void)source;
    throw unavailable_error("MADV_HUGEPAGE is not defined by this C library");
#endif
}

/// ASCII white space as in the "C" locale.
bool is_space(char c) { return c == ' ' || static_cast<unsigned char>(c) - 9u < 5u; }

/// Parses every white-space separated number of the mapped file with
/// std::from_chars, appending it to `values`.
template <class T>
void mmap_parse(const Source& source, std::vector<T>& values) {
    Mapping map(source.path, 0);
    map.advise(MADV_SEQUENTIAL, "madvise");
    const char* p = map.data();
    const char* const end = p + map.size();
    for (;;) {
        while (p != end && is_space(*p)) ++p;
        if (p == end) break;
        T v{};
        const auto [next, ec] = std::from_chars(p, end, v);
        if (ec != std::errc{} || (next != end && !is_space(*next)))
            throw parse_error("mmap_from_chars(" + source.path + "): not a number at byte " +
                              std::to_string(p - map.data()));
        values.push_back(v);
        p = next;
    }
}

void mmap_from_chars_ints(const Source& source, std::vector<std::uint64_t>& values) { mmap_parse(source, values); }
void mmap_from_chars_doubles(const Source& source, std::vector<double>& values) { mmap_parse(source, values); }

constexpr const char* unavailable = "";
constexpr ReadBytes mmap_scan = mmap_read<0, -1>;
constexpr ReadBytes mmap_populate = mmap_read<MAP_POPULATE, -1>;
constexpr ReadBytes mmap_sequential = mmap_read<0, MADV_SEQUENTIAL>;
constexpr ReadBytes mmap_hugepage = mmap_hugepage_read;

// The table below names each operation's function through IOBENCH_MMAP: the
// function here, `not_built` (listed as skipped with `unavailable`) where the
// family is not built, whose build never sees these names.
#define IOBENCH_MMAP(fn) fn
#else  // _WIN32: the same methods, listed as skipped.

constexpr const char* unavailable = "POSIX only (mmap); not built on Windows";
#define IOBENCH_MMAP(fn) ::iobench::not_built

#endif

const MethodRegistrar registrar{{.family = "mmap", .unavailable = unavailable}, {
    {.name = "mmap_scan",
     .description = "mmap(PROT_READ, MAP_SHARED) of the whole file, then one pass over the mapping: a page fault "
                    "per page (or fault-around batch) instead of read calls",
     .read_bytes = IOBENCH_MMAP(mmap_scan),
     .maps_file = true},
    {.name = "mmap_MAP_POPULATE",
     .description = "mmap with MAP_POPULATE: every page read in and mapped inside mmap(), the scan takes no fault",
     .read_bytes = IOBENCH_MMAP(mmap_populate),
     .maps_file = true},
    {.name = "mmap_MADV_SEQUENTIAL",
     .description = "mmap + madvise(MADV_SEQUENTIAL): aggressive read-ahead, pages dropped behind the scan",
     .read_bytes = IOBENCH_MMAP(mmap_sequential),
     .maps_file = true},
    {.name = "mmap_MADV_HUGEPAGE",
     .description = "mmap + madvise(MADV_HUGEPAGE): 2 MiB mappings where the page cache holds huge folios "
                    "(skipped where the kernel maps none)",
     .read_bytes = IOBENCH_MMAP(mmap_hugepage),
     .maps_file = true},
    {.name = "mmap_from_chars",
     .description = "mmap + madvise(MADV_SEQUENTIAL), std::from_chars straight from the mapping",
     .get_ints = IOBENCH_MMAP(mmap_from_chars_ints),
     .get_doubles = IOBENCH_MMAP(mmap_from_chars_doubles),
     .maps_file = true},
}};

}  // namespace
}  // namespace iobench
