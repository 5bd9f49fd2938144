// fast_io: the library of fast_io-readme.md itself (https://github.com/cppfastio/fast_io,
// pinned in cmake/IobenchFastIo.cmake), named by its own types so that the
// seed's rows line up: obuf_file, obuf_file_mutex, ibuf_file (its buffered
// files on a file descriptor / HANDLE), c_file and c_file_unlocked (its
// printing straight into a C FILE*'s buffer, "I hacked glibc's FILE*"),
// filebuf_file (the same for libstdc++'s std::filebuf), its locale imbuing
// (native_l10n + imbue) and its code-converting files (basic_ocode_cvt_file).
// Every call is fast_io's print/scan (print_freestanding / scan_freestanding,
// what fast_io::io::print and scan call for a device; <fast_io.h> itself is
// included only with the FILE* support, which does not compile everywhere).
//
// fast_io's buffers are sized at compile time (128 KiB by default), so no
// method here honours `buf`. Its errors (struct fast_io::error) become
// io_error / parse_error. One translation unit: fast_io's headers are heavy.
#include <fmt/format.h>

#include <cerrno>
#include <locale>
#include <memory>
#include <string>

#include <iobench/byte_fold.hpp>
#include <iobench/error.hpp>
#include <iobench/method.hpp>
#include "methods/buffer_sizes.hpp"

#ifdef IOBENCH_HAVE_FAST_IO
#include <fast_io_device.h>
#include <fast_io_unit/gb18030.h>
#ifdef IOBENCH_HAVE_FAST_IO_LEGACY
#include <fast_io.h>
#include <fast_io_legacy.h>
#endif
#ifdef IOBENCH_HAVE_FAST_IO_I18N
#include <fast_io_i18n.h>
#endif
#endif

namespace iobench {
namespace {

/// Bytes per read call of fast_io_ibuf_file's read_bytes (its own buffer is
/// fixed) and of the code-converting copy.
constexpr std::size_t read_request = default_buffer_size;

#ifdef IOBENCH_HAVE_FAST_IO

/// Throws fast_io's error `e` again as io_error (`call` on `path`) or parse_error.
[[noreturn]] void rethrow(const fast_io::error& e, const char* call, const std::string& path) {
    if (e.domain == fast_io::parse_domain_value)
        throw parse_error(fmt::format("{}({}): fast_io parse error {} (not a number, or out of range)", call, path,
                                      static_cast<unsigned>(e.code)));
    if (e.domain == fast_io::posix_domain_value)
        throw io_error(call, path, std::error_code(static_cast<int>(e.code), std::generic_category()));
#ifdef _WIN32
    throw io_error(call, path, std::error_code(static_cast<int>(e.code), std::system_category()));
#else
    throw io_error(fmt::format("{} (fast_io error {})", call, static_cast<unsigned long long>(e.code)), path,
                   std::error_code(EIO, std::generic_category()));
#endif
}

/// Drops what `out` still buffers, so that its destructor, which flushes and
/// must not throw, has nothing to write after a failed call.
template <class Out>
void discard(Out& out) noexcept {
    if constexpr (requires { out.obuffer; })  // basic_io_buffer: obuf_file, the code_cvt files
        obuffer_set_curr(out, obuffer_begin(out));
    else if constexpr (requires { out.handle; })  // obuf_file_mutex
        discard(out.handle);
}

/// Ends a run's output: close() where the type has it (fast_io's buffers
/// write what they hold, then close the file, throwing on failure; c_file
/// and filebuf_file close the stream), else flush (obuf_file_mutex, closed
/// by its destructor).
template <class Out>
void finish(Out& out) {
    if constexpr (requires { out.close(); }) {
        out.close();
        discard(out);  // written already: the destructor has nothing left to write
    } else {
        flush(out);
    }
}

/// Opens `File` on `path` for output (created or truncated).
template <class File>
File open_out(const std::string& path) {
    if constexpr (std::is_constructible_v<File, decltype(fast_io::mnp::os_c_str(path.c_str())), fast_io::open_mode>)
        return File(fast_io::mnp::os_c_str(path.c_str()), fast_io::open_mode::out);
    else
        return File(fast_io::mnp::os_c_str(path.c_str()));
}

/// Opens `File` on `path` for input.
template <class File>
File open_in(const std::string& path) {
    if constexpr (std::is_constructible_v<File, decltype(fast_io::mnp::os_c_str(path.c_str())), fast_io::open_mode>)
        return File(fast_io::mnp::os_c_str(path.c_str()), fast_io::open_mode::in);
    else
        return File(fast_io::mnp::os_c_str(path.c_str()));
}

/// Opens `File` on `sink`, runs `body(file)`, flushes; fast_io errors become
/// iobench's. The file is closed by its destructor when the call returns.
template <class File, class Body>
void write_file(const Sink& sink, Body&& body) {
    try {
        File out = open_out<File>(sink.path);
        try {
            body(out);
            finish(out);
        } catch (...) {
            discard(out);
            throw;
        }
    } catch (const fast_io::error& e) {
        rethrow(e, "fast_io::print", sink.path);
    }
}

template <class File>
void print_ints(const Sink& sink, std::uint64_t count) {
    write_file<File>(sink, [count](File& out) {
        for (std::uint64_t i = 0; i < count; ++i) fast_io::println_freestanding(out, i);
    });
}

template <class File>
void print_repeat(const Sink& sink, std::string_view line, std::uint64_t count) {
    write_file<File>(sink, [line, count](File& out) {
        for (std::uint64_t i = 0; i < count; ++i) fast_io::print_freestanding(out, line);
    });
}

template <class File>
void print_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count) {
    write_file<File>(sink, [&line, count](File& out) {
        for (std::uint64_t i = 0; i < count; ++i) fast_io::print_freestanding(out, line.prefix, i, line.suffix);
    });
}

/// fast_io prints a double in its shortest round-trip form by default.
template <class File>
void print_doubles(const Sink& sink, std::span<const double> values) {
    write_file<File>(sink, [values](File& out) {
        for (double v : values) fast_io::println_freestanding(out, v);
    });
}

template <class File>
void scan_ints(const Source& source, std::vector<std::uint64_t>& values) {
    try {
        File in = open_in<File>(source.path);
        std::uint64_t v = 0;
        while (fast_io::scan_freestanding(in, v)) values.push_back(v);
    } catch (const fast_io::error& e) {
        rethrow(e, "fast_io::scan", source.path);
    }
}

/// read(ibf, first, last) of read_request bytes per call until end of file,
/// every byte folded.
ReadResult ibuf_file_read(const Source& source) {
    try {
        fast_io::ibuf_file in = open_in<fast_io::ibuf_file>(source.path);
        std::unique_ptr<char[]> buf(new char[read_request]);
        ByteFold fold;
        for (;;) {
            char* const end = read(in, buf.get(), buf.get() + read_request);
            if (end == buf.get()) break;
            fold.update(buf.get(), static_cast<std::size_t>(end - buf.get()));
        }
        return fold.result();
    } catch (const fast_io::error& e) {
        rethrow(e, "fast_io::read", source.path);
    }
}

// --- code conversion (transcode_*) ---------------------------------------

/// The UTF-8 file `source` copied through the code-converting output file
/// `Out` (fast_io's basic_ocode_cvt_file), read_request bytes per read; the
/// converter keeps a code point split between two writes.
template <class Out>
void convert_file(const Source& source, const Sink& sink) {
    try {
        fast_io::u8inative_file in = open_in<fast_io::u8inative_file>(source.path);
        std::unique_ptr<char8_t[]> buf(new char8_t[read_request]);
        Out out(fast_io::mnp::os_c_str(sink.path.c_str()));
        try {
            for (;;) {
                char8_t* const end = read(in, buf.get(), buf.get() + read_request);
                if (end == buf.get()) break;
                write(out, buf.get(), end);
            }
            finish(out);
        } catch (...) {
            discard(out);
            throw;
        }
    } catch (const fast_io::error& e) {
        rethrow(e, "fast_io::write", sink.path);
    }
}

void ocode_cvt_file_transcode(const Source& source, const Sink& sink, Encoding to) {
    using fast_io::encoding_scheme;
    switch (to) {
    case Encoding::utf16le:
        return convert_file<fast_io::basic_ocode_cvt_file<char8_t, char16_t, encoding_scheme::execution_charset,
                                                          encoding_scheme::utf_le>>(source, sink);
    case Encoding::utf32le:
        return convert_file<fast_io::basic_ocode_cvt_file<char8_t, char32_t, encoding_scheme::execution_charset,
                                                          encoding_scheme::utf_le>>(source, sink);
    case Encoding::gb18030:
        return convert_file<fast_io::u8ogb18030_file>(source, sink);
    }
}

// --- locale (native_l10n + imbue) ----------------------------------------

#ifdef IOBENCH_HAVE_FAST_IO_I18N
/// fast_io's locale `name`, loaded from fast_io_i18n.locale.<name>.so (built
/// from the separate fast_io_i18n repository). Throws `unavailable_error` when
/// that library cannot be loaded.
fast_io::native_l10n load_l10n(const std::string& name) {
    try {
        return fast_io::native_l10n(fast_io::mnp::os_c_str(name.c_str()));
    } catch (const fast_io::error&) {
        throw unavailable_error(fmt::format(
            "fast_io cannot load its locale \"{}\": fast_io_i18n.locale.{}.so (from the fast_io_i18n repository) is "
            "not installed",
            name, name.find('.') == std::string::npos ? name + ".UTF-8" : name));
    }
}

/// print(imbue(loc, obf), i, '\n') with fast_io's locale `name`.
void l10n_ints(const Sink& sink, std::uint64_t count, const std::string& name) {
    fast_io::native_l10n loc = load_l10n(name);
    write_file<fast_io::obuf_file>(sink, [&loc, count](fast_io::obuf_file& out) {
        auto imbued = fast_io::imbue(loc, out);
        for (std::uint64_t i = 0; i < count; ++i) fast_io::print_freestanding(imbued, i, char{'\n'});
    });
}

void l10n_c_ints(const Sink& sink, std::uint64_t count) { l10n_ints(sink, count, "C"); }

/// The user's locale, as std::locale("") names it (fast_io's own lookup of
/// "" reads only L10N and LANG).
void l10n_user_ints(const Sink& sink, std::uint64_t count) {
    std::string name;
    try {
        name = std::locale("").name();
    } catch (const std::runtime_error& e) {
        throw unavailable_error(fmt::format("the user's locale is not installed: {}", e.what()));
    }
    if (name.find(';') != std::string::npos)
        throw unavailable_error("the user's locale mixes categories (" + name + "); fast_io takes one locale name");
    l10n_ints(sink, count, name);
}
#endif

#endif  // IOBENCH_HAVE_FAST_IO

// Why each part of fast_io is not built here ("" where it is), and the macros
// through which the table below names each operation's function: the
// function where its part is built, `not_built` elsewhere (listed as skipped
// with the part's reason), whose build never sees these names.
#ifdef IOBENCH_HAVE_FAST_IO
constexpr const char* no_fast_io = "";
#define IOBENCH_FAST_IO(...) __VA_ARGS__
#else
constexpr const char* no_fast_io = IOBENCH_FAST_IO_NOT_BUILT;
#define IOBENCH_FAST_IO(...) ::iobench::not_built
#endif
#if defined(IOBENCH_HAVE_FAST_IO) && defined(IOBENCH_HAVE_FAST_IO_LEGACY)
constexpr const char* no_legacy = "";
#define IOBENCH_FAST_IO_LEGACY(...) __VA_ARGS__
#elif defined(IOBENCH_HAVE_FAST_IO)
constexpr const char* no_legacy = IOBENCH_FAST_IO_LEGACY_NOT_BUILT;
#define IOBENCH_FAST_IO_LEGACY(...) ::iobench::not_built
#else
constexpr const char* no_legacy = no_fast_io;
#define IOBENCH_FAST_IO_LEGACY(...) ::iobench::not_built
#endif
// The locale operations: fast_io_obuf_file's put_ints_locale is not built
// without fast_io's locale support although the method is, so its reason
// goes with the operation.
#if defined(IOBENCH_HAVE_FAST_IO) && defined(IOBENCH_HAVE_FAST_IO_I18N)
constexpr const char* no_l10n = "";
#define IOBENCH_FAST_IO_I18N(...) __VA_ARGS__
#elif defined(IOBENCH_HAVE_FAST_IO)
constexpr const char* no_l10n = IOBENCH_FAST_IO_I18N_NOT_BUILT;
#define IOBENCH_FAST_IO_I18N(...) ::iobench::not_built_because(no_l10n)
#else
constexpr const char* no_l10n = no_fast_io;
#define IOBENCH_FAST_IO_I18N(...) ::iobench::not_built_because(no_l10n)
#endif

const MethodRegistrar registrar{{.family = "fast_io"}, {
    {.name = "fast_io_obuf_file",
     .description = "fast_io::obuf_file: println(obf, i) / print(obf, line) / print(obf, prefix, i, suffix) / "
                    "println(obf, v); ints_out_locale: imbued with the user's locale (native_l10n)",
     .unavailable = no_fast_io,
     .put_ints = IOBENCH_FAST_IO(print_ints<fast_io::obuf_file>),
     .put_repeat = IOBENCH_FAST_IO(print_repeat<fast_io::obuf_file>),
     .put_lines = IOBENCH_FAST_IO(print_lines<fast_io::obuf_file>),
     .put_doubles = IOBENCH_FAST_IO(print_doubles<fast_io::obuf_file>),
     .put_ints_locale = IOBENCH_FAST_IO_I18N(l10n_user_ints)},
    {.name = "fast_io_obuf_file_mutex",
     .description = "fast_io::obuf_file_mutex: obuf_file behind a native mutex, locked once per print call",
     .unavailable = no_fast_io,
     .put_ints = IOBENCH_FAST_IO(print_ints<fast_io::obuf_file_mutex>),
     .put_repeat = IOBENCH_FAST_IO(print_repeat<fast_io::obuf_file_mutex>),
     .put_lines = IOBENCH_FAST_IO(print_lines<fast_io::obuf_file_mutex>),
     .put_doubles = IOBENCH_FAST_IO(print_doubles<fast_io::obuf_file_mutex>)},
    {.name = "fast_io_obuf_file_imbue_C",
     .description = "fast_io::obuf_file imbued with fast_io's \"C\" locale: println(imbue(native_l10n(\"C\"), obf), i)",
     .unavailable = no_l10n,
     .put_ints = IOBENCH_FAST_IO_I18N(l10n_c_ints)},
    {.name = "fast_io_ibuf_file",
     .description = "fast_io::ibuf_file: scan(ibf, v) until end of file; file_read: read(ibf, first, last) of " +
                    size_text(read_request),
     .default_buffer_size = 0,
     .unavailable = no_fast_io,
     .get_ints = IOBENCH_FAST_IO(scan_ints<fast_io::ibuf_file>),
     .read_bytes = IOBENCH_FAST_IO(ibuf_file_read)},
    {.name = "fast_io_c_file",
     .description = "fast_io::c_file: fast_io's print/scan straight into a C FILE*'s buffer, the FILE* locked per call",
     .unavailable = no_legacy,
     .put_ints = IOBENCH_FAST_IO_LEGACY(print_ints<fast_io::c_file>),
     .put_repeat = IOBENCH_FAST_IO_LEGACY(print_repeat<fast_io::c_file>),
     .get_ints = IOBENCH_FAST_IO_LEGACY(scan_ints<fast_io::c_file>),
     .put_lines = IOBENCH_FAST_IO_LEGACY(print_lines<fast_io::c_file>),
     .put_doubles = IOBENCH_FAST_IO_LEGACY(print_doubles<fast_io::c_file>)},
    {.name = "fast_io_c_file_unlocked",
     .description = "fast_io::c_file_unlocked: fast_io's print/scan straight into a C FILE*'s buffer, no lock",
     .unavailable = no_legacy,
     .put_ints = IOBENCH_FAST_IO_LEGACY(print_ints<fast_io::c_file_unlocked>),
     .put_repeat = IOBENCH_FAST_IO_LEGACY(print_repeat<fast_io::c_file_unlocked>),
     .get_ints = IOBENCH_FAST_IO_LEGACY(scan_ints<fast_io::c_file_unlocked>),
     .put_lines = IOBENCH_FAST_IO_LEGACY(print_lines<fast_io::c_file_unlocked>),
     .put_doubles = IOBENCH_FAST_IO_LEGACY(print_doubles<fast_io::c_file_unlocked>)},
    {.name = "fast_io_filebuf_file",
     .description = "fast_io::filebuf_file: fast_io's print/scan straight into a std::filebuf's buffer",
     .unavailable = no_legacy,
     .put_ints = IOBENCH_FAST_IO_LEGACY(print_ints<fast_io::filebuf_file>),
     .put_repeat = IOBENCH_FAST_IO_LEGACY(print_repeat<fast_io::filebuf_file>),
     .get_ints = IOBENCH_FAST_IO_LEGACY(scan_ints<fast_io::filebuf_file>),
     .put_lines = IOBENCH_FAST_IO_LEGACY(print_lines<fast_io::filebuf_file>),
     .put_doubles = IOBENCH_FAST_IO_LEGACY(print_doubles<fast_io::filebuf_file>)},
    {.name = "fast_io_ocode_cvt_file",
     .description = "fast_io::basic_ocode_cvt_file<char8_t, char16_t|char32_t, ..., utf_le> / u8ogb18030_file: "
                    "write(out, first, last) of the UTF-8 text, " + size_text(read_request) + " per read",
     .unavailable = no_fast_io,
     .transcode = IOBENCH_FAST_IO(ocode_cvt_file_transcode)},
}};

}  // namespace
}  // namespace iobench
