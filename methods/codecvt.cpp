// codecvt: the C++ standard library's code conversion facets. UTF-8 to
// UTF-16 and UTF-32 with std::codecvt<char16_t|char32_t, char8_t, mbstate_t>
// (C++20, from std::locale::classic()); to GB18030 through the
// codecvt<wchar_t, char, mbstate_t> of a GB18030 locale (zh_CN.GB18030), as a
// wofstream imbued with that locale converts: fast_io's "Code Convert" rows
// done the standard way. The files are read and written with fread/fwrite,
// default_buffer_size bytes per read.
//
// The char8_t facets are deprecated since LWG 3767 (MSVC's STL warns,
// STL4047); they are still the standard's own UTF-8 converters that programs
// call, which is what this family measures, so the warning is turned off here
// and nowhere else.
#if defined(_MSC_VER)
#define _SILENCE_CXX20_CODECVT_CHAR8_T_FACETS_DEPRECATION_WARNING
#endif
#include <bit>
#include <cstdio>
#include <cstring>
#include <cwchar>
#include <locale>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include "methods/buffer_sizes.hpp"
#include "methods/stdio_stream.hpp"

namespace iobench {
namespace {

/// Bytes read per fread call.
constexpr std::size_t chunk = default_buffer_size;

/// The glibc name of the locale whose wide-character codecvt writes GB18030.
constexpr const char* gb18030_locale = "zh_CN.GB18030";

/// Writes `n` bytes at `p` to `out`; a short write becomes `io_error`.
void put(StdioFile& out, const void* p, std::size_t n) {
    if (n != 0 && std::fwrite(p, 1, n, out.f) != n) throw_errno("fwrite", out.path);
}

/// Converts the UTF-8 file to the code units `Unit` with `cvt.in()`, calling
/// `emit(first, last)` for every converted run. A code point split between
/// two reads is carried over to the next one.
template <class Unit, class Emit>
void utf8_to_units(const Source& source, const std::codecvt<Unit, char8_t, std::mbstate_t>& cvt, Emit&& emit) {
    StdioFile in;
    open_stream(in, source.path, "rb", 0);
    std::vector<char8_t> from(chunk + 8);
    std::vector<Unit> to(chunk + 8);
    std::mbstate_t state{};
    std::size_t carried = 0;
    for (;;) {
        const std::size_t n = std::fread(from.data() + carried, 1, chunk, in.f);
        if (std::ferror(in.f)) throw_errno("fread", source.path);
        const std::size_t have = carried + n;
        const char8_t* next = nullptr;
        Unit* to_next = nullptr;
        const auto result = cvt.in(state, from.data(), from.data() + have, next, to.data(), to.data() + to.size(),
                                   to_next);
        if (result == std::codecvt_base::error)
            throw parse_error("codecvt::in(" + source.path + "): not valid UTF-8");
        emit(to.data(), to_next);
        carried = static_cast<std::size_t>(from.data() + have - next);
        std::memmove(from.data(), next, carried);
        if (n == 0) break;
    }
    if (carried != 0) throw parse_error("codecvt::in(" + source.path + "): the file ends inside a UTF-8 sequence");
}

/// Writes code units as little-endian bytes.
template <class Unit>
void put_le(StdioFile& out, const Unit* first, const Unit* last) {
    if constexpr (std::endian::native == std::endian::little) {
        put(out, first, static_cast<std::size_t>(last - first) * sizeof(Unit));
    } else {
        for (; first != last; ++first) {
            unsigned char b[sizeof(Unit)];
            for (std::size_t i = 0; i < sizeof(Unit); ++i) b[i] = static_cast<unsigned char>(*first >> (8 * i));
            put(out, b, sizeof b);
        }
    }
}

template <class Unit>
void to_utf_le(const Source& source, const Sink& sink) {
    const auto& cvt = std::use_facet<std::codecvt<Unit, char8_t, std::mbstate_t>>(std::locale::classic());
    StdioFile out;
    open_stream(out, sink.path, "wb", 0);
    utf8_to_units<Unit>(source, cvt, [&out](const Unit* first, const Unit* last) { put_le(out, first, last); });
    out.close_output();
}

/// UTF-8 -> char32_t (classic codecvt) -> wchar_t -> the GB18030 locale's
/// codecvt<wchar_t, char>::out(): what a wofstream imbued with it does.
void to_gb18030(const Source& source, const Sink& sink) {
#if WCHAR_MAX <= 0xFFFF
    (void)source;
    (void)sink;
    throw unavailable_error("wchar_t holds UTF-16 here and the C++ library has no GB18030 locale");
#else
    {
        std::locale gb;
        try {
            gb = std::locale(gb18030_locale);
        } catch (const std::runtime_error& e) {
            throw unavailable_error(std::string("the ") + gb18030_locale + " locale is not installed: " + e.what());
        }
        const auto& narrow = std::use_facet<std::codecvt<wchar_t, char, std::mbstate_t>>(gb);
        const auto& utf32 = std::use_facet<std::codecvt<char32_t, char8_t, std::mbstate_t>>(std::locale::classic());
        StdioFile out;
        open_stream(out, sink.path, "wb", 0);
        std::vector<char> bytes(4 * (chunk + 8) + 16);
        std::mbstate_t state{};
        utf8_to_units<char32_t>(source, utf32, [&](const char32_t* first, const char32_t* last) {
            static_assert(sizeof(wchar_t) == sizeof(char32_t));
            const auto* wfirst = reinterpret_cast<const wchar_t*>(first);  // same size and values (UCS-4)
            const auto* wlast = reinterpret_cast<const wchar_t*>(last);
            while (wfirst != wlast) {
                const wchar_t* wnext = nullptr;
                char* to_next = nullptr;
                const auto r = narrow.out(state, wfirst, wlast, wnext, bytes.data(), bytes.data() + bytes.size(),
                                          to_next);
                if (r == std::codecvt_base::error)
                    throw parse_error(std::string("codecvt::out(") + sink.path + "): a character GB18030 lacks");
                put(out, bytes.data(), static_cast<std::size_t>(to_next - bytes.data()));
                if (wnext == wfirst && to_next == bytes.data())
                    throw parse_error(std::string("codecvt::out(") + sink.path + "): no progress");
                wfirst = wnext;
            }
        });
        out.close_output();
    }
#endif
}

void codecvt_transcode(const Source& source, const Sink& sink, Encoding to) {
    switch (to) {
    case Encoding::utf16le:
        return to_utf_le<char16_t>(source, sink);
    case Encoding::utf32le:
        return to_utf_le<char32_t>(source, sink);
    case Encoding::gb18030:
        return to_gb18030(source, sink);
    }
}

const MethodRegistrar registrar{{.family = "codecvt"}, {
    {.name = "codecvt",
     .description = "std::codecvt<char16_t|char32_t, char8_t>::in (classic locale); GB18030: then the "
                    "codecvt<wchar_t, char>::out of a zh_CN.GB18030 locale; fread/fwrite, " +
                    size_text(chunk) + " per read",
     .transcode = codecvt_transcode},
}};

}  // namespace
}  // namespace iobench
