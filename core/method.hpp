// The method model: one I/O method is a set of plain function pointers, one per
// operation it can perform. A method family (methods/*.cpp) registers its methods
// from a static initializer; the runner pairs each workload with every method
// that provides the operation the workload needs.
//
// Rule 1 of DESIGN.md: the runner calls an operation once per measured run, and
// the operation owns its loop over items, so no indirection happens per item.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace iobench {

/// Where an output operation writes: a regular file it must create (or
/// truncate), fill and close within the call.
struct Sink {
    std::string path;         ///< file to create; its directory exists
    std::size_t buffer_size;  ///< user-space buffer in bytes; 0 = the method's default
};

/// Where an input operation reads from: an existing regular file it opens,
/// reads to the end and closes within the call.
struct Source {
    std::string path;         ///< file to read
    std::size_t buffer_size;  ///< user-space buffer in bytes; 0 = the method's default
};

/// Writes the integers 0 .. count-1 in decimal, each followed by '\n'.
/// Throws `io_error` when a call fails (open, write, close: a full disk, say).
using PutInts = void (*)(const Sink& sink, std::uint64_t count);

/// Writes `line` `count` times (the line carries its own '\n').
/// Throws `io_error` when a call fails.
using PutRepeat = void (*)(const Sink& sink, std::string_view line, std::uint64_t count);

/// Reads every white-space separated decimal integer of the file, appending
/// each to `values` (which arrives empty, with capacity for the expected count
/// reserved, so every method pays the same for the vector). Throws `io_error`
/// or `parse_error`.
using GetInts = void (*)(const Source& source, std::vector<std::uint64_t>& values);

/// What a ReadBytes operation read: the number of bytes and their fold
/// (data/byte_fold.hpp: `ByteFold`, a Fletcher-style sum over 64-bit words,
/// cheap next to memory bandwidth and sensitive to every byte and its order).
struct ReadResult {
    std::uint64_t bytes = 0;  ///< bytes read, end of file included
    std::uint64_t fold = 0;   ///< ByteFold::digest() of those bytes
    friend bool operator==(const ReadResult&, const ReadResult&) = default;
};

/// Reads the whole file from its first byte to its end, through a user-space
/// buffer of `Source::buffer_size` bytes per call where the method has one,
/// and folds every byte, in file order, into a `ByteFold`: no read can be
/// skipped and no byte left untouched. Bounded memory unless the method maps
/// the file (`Method::maps_file`). Throws `io_error`; `unavailable_error` when
/// the platform or file system refuses the method at run time (O_DIRECT on a
/// file system without it, io_uring refused by the kernel).
using ReadBytes = ReadResult (*)(const Source& source);

/// Reads every white-space separated decimal floating-point number of the
/// file (as written by std::to_chars or "%.17g"), appending each to `values`
/// (which arrives empty, with capacity for the expected count reserved).
/// Every value must come back bit for bit. Throws `io_error` or `parse_error`.
using GetDoubles = void (*)(const Source& source, std::vector<double>& values);

/// A numbered text line: line i of a run is `prefix`, then i in decimal (no
/// sign, no leading zeros), then `suffix`, which ends with '\n'. Neither part
/// contains '%' (so a method may build a printf format from them) or '\0'.
struct NumberedLine {
    std::string_view prefix;  ///< text before the number ("Line ")
    std::string_view suffix;  ///< text after the number, ending with '\n'
};

/// Writes lines 0 .. count-1 of `line` (the Go buffering experiment's
/// `fmt.Sprintf("Line %d: ...\n", i)`). Throws `io_error` when a call fails.
using PutLines = void (*)(const Sink& sink, const NumberedLine& line, std::uint64_t count);

/// Writes every value of `values`, in order, each followed by '\n', as text
/// that std::from_chars parses back to the identical double (the shortest
/// round-trip form, or any other exact one such as printf's "%.17g"). The
/// values are finite. Throws `io_error` when a call fails.
using PutDoubles = void (*)(const Sink& sink, std::span<const double> values);

/// Writes `bytes`, formatted before the call (outside the measurement), to a
/// new file: the operation of the `limit` reference, which shows what the
/// kernel alone costs for a workload's bytes. Throws `io_error`.
using PutPrepared = void (*)(const Sink& sink, std::span<const char> bytes);

/// The process's standard output as the target of a console operation: fd 1,
/// C's `stdout` and `std::cout` all refer to it. The runner points fd 1 at the
/// run's target (/dev/null, a file or a pipe) before the call.
struct StdoutSink {
    /// Buffer in bytes the method gives stdout's stream (setvbuf); 0 = the
    /// library's default (for C stdio: full buffering of min(BUFSIZ,
    /// st_blksize) bytes, as for a program whose stdout is not a terminal).
    std::size_t buffer_size;
};

/// Writes `line` `count` times to standard output, then flushes whatever the
/// method buffered (fflush, std::cout.flush(), ...): the run ends with every
/// byte handed to the kernel. `line` ends with '\n', contains no '%', and is
/// NUL-terminated (`line.data()[line.size()] == '\0'`), so it may be passed
/// where a C string or a printf format is expected. Throws `io_error`.
using PutConsole = void (*)(const StdoutSink& out, std::string_view line, std::uint64_t count);

/// The formatted messages of the C console-output benchmark
/// (shared/seeds/console-output-benchmark-c-linux.md); their arguments and the
/// exact text each produces are in core/console.hpp.
enum class ConsoleFormat {
    int_value,    ///< printf("Value: %d\n", 12345)
    float_value,  ///< printf("Value: %.2f\n", 123.45)
    string_int,   ///< printf("Message: %s, Count: %d\n", "Hello", 42)
    int_string,   ///< printf("Value: %d, String: %s\n", 42, "test")
    datetime,     ///< printf("[%04d-%02d-%02d %02d:%02d:%02d] %s: %d (%.2f%%)\n", ...)
};

/// Prints message `format` `count` times to standard output, formatting its
/// arguments (core/console.hpp) with the method's own call every time, then
/// flushes as PutConsole does. Throws `io_error`.
using PrintConsole = void (*)(const StdoutSink& out, ConsoleFormat format, std::uint64_t count);

/// Target encoding of a Transcode operation (the source is always UTF-8).
/// Every target is written without a byte-order mark.
enum class Encoding {
    utf16le,  ///< UTF-16, little-endian code units (surrogate pairs above U+FFFF)
    utf32le,  ///< UTF-32, little-endian code units
    gb18030,  ///< GB 18030-2005 (four bytes for every code point above U+FFFF)
};

/// Converts the whole UTF-8 file `source` to `to`, writing the result to the
/// file `sink` (created or truncated, closed within the call). Streams
/// through bounded buffers unless the method says otherwise. Throws
/// `io_error` when a call fails, `parse_error` when the input is not valid
/// UTF-8, `unavailable_error` when the method has no converter for `to` here
/// (a locale or code page not installed).
using Transcode = void (*)(const Source& source, const Sink& sink, Encoding to);

/// One I/O method: the function a user calls, and the operations it implements.
/// Operations it lacks stay null; the runner does not pair it with workloads
/// that need them.
struct Method {
    std::string name{};       ///< benchmark-name part: the call a user makes ("fprintf", "write", "obuf")
    std::string family{};     ///< the file in methods/ that registers it ("stdio", "posix", ...)
    std::string description{};  ///< one line for --list and the docs
    /// Default user-space buffer in bytes when the method has one it can size
    /// (0 = unbuffered, or a buffer the method cannot size).
    std::size_t default_buffer_size = 0;
    /// True when the method honours `Sink::buffer_size` / `Source::buffer_size`,
    /// so a suite may sweep it as the `buf` parameter.
    bool sizable_buffer = false;
    /// Why the method cannot run on this build ("not in this C library", ...);
    /// empty when it can. An unavailable method is listed as skipped, never hidden.
    std::string unavailable{};
    /// True for a reference row rather than a method a user would pick
    /// (`limit`: the workload's bytes, prepared in memory beforehand, written
    /// or read in 1 MiB system calls). The summary lists it apart and never
    /// ranks it as the fastest; other rows are given as multiples of it (x_limit).
    bool reference = false;

    PutInts put_ints = nullptr;
    PutRepeat put_repeat = nullptr;
    GetInts get_ints = nullptr;
    PutLines put_lines = nullptr;
    PutDoubles put_doubles = nullptr;
    PutPrepared put_prepared = nullptr;
    PutConsole put_console = nullptr;
    PrintConsole print_console = nullptr;
    ReadBytes read_bytes = nullptr;
    GetDoubles get_doubles = nullptr;
    /// True when read_bytes maps the whole file into the address space (mmap,
    /// MapViewOfFile) instead of streaming it through a bounded buffer: a file
    /// larger than memory still works on a 64-bit system (the mapped pages are
    /// clean and reclaimable), but not one larger than the address space.
    bool maps_file = false;
    /// Converts a UTF-8 file to another encoding (transcode_utf16le, _utf32le, _gb18030).
    Transcode transcode = nullptr;
    /// put_ints with the user's locale (std::locale(""), setlocale(LC_ALL, "")),
    /// digits grouped as that locale groups them (ints_out_locale).
    PutInts put_ints_locale = nullptr;
    /// get_ints with the user's locale, reading digits grouped as that locale
    /// groups them (ints_in_locale).
    GetInts get_ints_locale = nullptr;
};

/// Adds a method to the registry. Throws `std::logic_error` when a method of the
/// same name is already registered (two families must not claim one name).
void register_method(Method method);

/// Every registered method, in registration order by family then name.
const std::vector<Method>& methods();

/// The method called `name`, or nullptr.
const Method* find_method(std::string_view name);

/// Stand-ins for the operations of a method that is not built on this
/// platform or configuration (registered with `Method::unavailable` set, so it
/// is listed as skipped with its reason and paired with the right workloads).
/// The runner never calls them; if something does, they throw `std::logic_error`.
namespace not_built {
void put_ints(const Sink& sink, std::uint64_t count);
void put_repeat(const Sink& sink, std::string_view line, std::uint64_t count);
void get_ints(const Source& source, std::vector<std::uint64_t>& values);
void put_lines(const Sink& sink, const NumberedLine& line, std::uint64_t count);
void put_doubles(const Sink& sink, std::span<const double> values);
void put_console(const StdoutSink& out, std::string_view line, std::uint64_t count);
void print_console(const StdoutSink& out, ConsoleFormat format, std::uint64_t count);
ReadResult read_bytes(const Source& source);
void get_doubles(const Source& source, std::vector<double>& values);
void transcode(const Source& source, const Sink& sink, Encoding to);
}  // namespace not_built

/// Registers methods from a static initializer:
/// `const iobench::MethodRegistrar registrar{{ {.name = "fprintf", ...}, ... }};`
struct MethodRegistrar {
    MethodRegistrar(std::initializer_list<Method> list) {
        for (const Method& m : list) register_method(m);
    }
};

}  // namespace iobench
