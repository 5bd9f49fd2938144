// Character-set conversion with the operating system's converter, for the
// transcode workloads: iconv(3) (glibc's) on POSIX, as the seed's `iconv`
// command and universal.cc did; MultiByteToWideChar / WideCharToMultiByte on
// Windows (code page 54936 for GB18030). Each is listed as skipped where the
// other one runs. The files are read and written with fread/fwrite,
// default_buffer_size bytes per read; a code point split between two reads is
// carried to the next.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include "methods/buffer_sizes.hpp"
#include "methods/stdio_stream.hpp"

#if __has_include(<iconv.h>) && !defined(_WIN32)
#include <iconv.h>
#define IOBENCH_HAVE_ICONV 1
#endif
#ifdef _WIN32
#include <windows.h>
#endif

namespace iobench {
namespace {

/// Bytes read per fread call.
constexpr std::size_t chunk = default_buffer_size;

/// Writes `n` bytes at `p` to `out`; a short write becomes `io_error`.
[[maybe_unused]] void put(StdioFile& out, const void* p, std::size_t n) {
    if (n != 0 && std::fwrite(p, 1, n, out.f) != n) throw_errno("fwrite", out.path);
}

#ifdef IOBENCH_HAVE_ICONV
/// iconv's name of `to`.
const char* iconv_name(Encoding to) {
    switch (to) {
    case Encoding::utf16le:
        return "UTF-16LE";
    case Encoding::utf32le:
        return "UTF-32LE";
    case Encoding::gb18030:
        return "GB18030";
    }
    return "";
}

/// An iconv_t closed on destruction.
struct Converter {
    iconv_t cd;
    ~Converter() { iconv_close(cd); }
};

void iconv_transcode(const Source& source, const Sink& sink, Encoding to) {
    const iconv_t cd = iconv_open(iconv_name(to), "UTF-8");
    if (cd == reinterpret_cast<iconv_t>(-1))
        throw unavailable_error(std::string("iconv_open(\"") + iconv_name(to) + "\", \"UTF-8\"): " + std::strerror(errno));
    Converter converter{cd};
    StdioFile in, out;
    open_stream(in, source.path, "rb", 0);
    open_stream(out, sink.path, "wb", 0);
    std::vector<char> from(chunk + 8);
    std::vector<char> into(4 * chunk + 64);
    std::size_t carried = 0;
    for (;;) {
        const std::size_t n = std::fread(from.data() + carried, 1, chunk, in.f);
        if (std::ferror(in.f)) throw_errno("fread", source.path);
        char* inp = from.data();
        std::size_t left = carried + n;
        while (left != 0) {
            char* outp = into.data();
            std::size_t room = into.size();
            const std::size_t r = iconv(cd, &inp, &left, &outp, &room);
            const int error = r == static_cast<std::size_t>(-1) ? errno : 0;
            put(out, into.data(), static_cast<std::size_t>(outp - into.data()));
            if (error == EINVAL) break;  // an incomplete sequence at the end: carried over
            if (error == EILSEQ) throw parse_error("iconv(" + source.path + "): not valid UTF-8, or not in " +
                                                   iconv_name(to));
            if (error != 0 && error != E2BIG) throw io_error("iconv", source.path, std::error_code(error, std::generic_category()));
        }
        std::memmove(from.data(), inp, left);
        carried = left;
        if (n == 0) break;
    }
    if (carried != 0) throw parse_error("iconv(" + source.path + "): the file ends inside a UTF-8 sequence");
    char* outp = into.data();
    std::size_t room = into.size();
    if (iconv(cd, nullptr, nullptr, &outp, &room) == static_cast<std::size_t>(-1)) throw_errno("iconv", sink.path);
    put(out, into.data(), static_cast<std::size_t>(outp - into.data()));
    out.close_output();
}
constexpr const char* no_iconv = "";
#else
constexpr const char* no_iconv = "no iconv(3) in this C library";
constexpr NotBuilt iconv_transcode = not_built;
#endif

#ifdef _WIN32
/// Length of the longest prefix of `p[0, n)` that ends on a UTF-8 code-point boundary.
std::size_t whole_code_points(const char* p, std::size_t n) {
    std::size_t i = n;
    std::size_t back = 0;
    while (i > 0 && back < 4 && (static_cast<unsigned char>(p[i - 1]) & 0xC0) == 0x80) --i, ++back;
    if (i == 0) return n;
    const unsigned char lead = static_cast<unsigned char>(p[i - 1]);
    const std::size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return back + 1 >= length ? n : i - 1;
}

void win32_transcode(const Source& source, const Sink& sink, Encoding to) {
    if (to == Encoding::utf32le)
        throw unavailable_error("WideCharToMultiByte has no UTF-32 code page (12000 is for managed code only)");
    if (to == Encoding::gb18030 && !IsValidCodePage(54936))
        throw unavailable_error("code page 54936 (GB18030) is not installed here");
    StdioFile in, out;
    open_stream(in, source.path, "rb", 0);
    open_stream(out, sink.path, "wb", 0);
    std::vector<char> from(chunk + 8);
    std::vector<wchar_t> wide(chunk + 8);
    std::vector<char> narrow(4 * chunk + 64);
    std::size_t carried = 0;
    for (;;) {
        const std::size_t n = std::fread(from.data() + carried, 1, chunk, in.f);
        if (std::ferror(in.f)) throw_errno("fread", source.path);
        const std::size_t have = carried + n;
        const std::size_t whole = n == 0 ? have : whole_code_points(from.data(), have);
        if (whole != 0) {
            const int units = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, from.data(), static_cast<int>(whole),
                                                  wide.data(), static_cast<int>(wide.size()));
            if (units == 0) throw parse_error("MultiByteToWideChar(" + source.path + "): not valid UTF-8");
            if (to == Encoding::utf16le) {
                put(out, wide.data(), static_cast<std::size_t>(units) * sizeof(wchar_t));
            } else {
                const int bytes = WideCharToMultiByte(54936, 0, wide.data(), units, narrow.data(),
                                                      static_cast<int>(narrow.size()), nullptr, nullptr);
                if (bytes == 0)
                    throw io_error("WideCharToMultiByte(54936)", sink.path,
                                   std::error_code(static_cast<int>(GetLastError()), std::system_category()));
                put(out, narrow.data(), static_cast<std::size_t>(bytes));
            }
        }
        carried = have - whole;
        std::memmove(from.data(), from.data() + whole, carried);
        if (n == 0) break;
    }
    out.close_output();
}
constexpr const char* no_win32 = "";
#else
constexpr const char* no_win32 = "MultiByteToWideChar is a Windows call";
constexpr NotBuilt win32_transcode = not_built;
#endif

const MethodRegistrar registrar{{.family = "iconv"}, {
    {.name = "iconv",
     .description = "iconv(iconv_open(\"UTF-16LE|UTF-32LE|GB18030\", \"UTF-8\"), ...) per " + size_text(chunk) + " read",
     .unavailable = no_iconv,
     .transcode = iconv_transcode},
    {.name = "MultiByteToWideChar",
     .description = "MultiByteToWideChar(CP_UTF8) per " + size_text(chunk) +
                    " read (UTF-16LE), then WideCharToMultiByte(54936) for GB18030; no UTF-32",
     .unavailable = no_win32,
     .transcode = win32_transcode},
}};

}  // namespace
}  // namespace iobench
