// The method model: one I/O method is a set of plain function pointers, one per
// operation it can perform. A method family (methods/*.cpp) registers its methods
// from a static initializer; the runner pairs each workload with every method
// that provides the operation the workload needs.
//
// Rule 1 of docs/design.md: the runner calls an operation once per measured run, and
// the operation owns its loop over items, so no indirection happens per item.
// The per-call shape (Method::calls, iobench/calls.hpp) is the exception that
// rule 9 of docs/design.md makes: one call per item, as real code calls a logger.
#pragma once
#define IOBENCH_METHOD_HPP

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <iobench/api.hpp>
#include <iobench/byte_fold.hpp>
#include <iobench/encoding.hpp>

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

/// Writes `line` `count` times (the line carries its own '\n'; it is not
/// NUL-terminated: write it by its size, with fwrite rather than fputs).
/// Throws `io_error` when a call fails.
using PutRepeat = void (*)(const Sink& sink, std::string_view line, std::uint64_t count);

/// Reads every white-space separated decimal integer of the file, appending
/// each to `values` (which arrives empty, with capacity for the expected count
/// reserved, so every method pays the same for the vector). Throws `io_error`
/// or `parse_error`.
using GetInts = void (*)(const Source& source, std::vector<std::uint64_t>& values);

/// What a ReadBytes operation read: `ReadResult` (iobench/byte_fold.hpp).

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

/// `line` as a printf format: prefix, "%llu", suffix, for the methods that
/// print line i with printf-family calls (the argument: i as unsigned long long).
inline std::string printf_format(const NumberedLine& line) {
    return std::string(line.prefix) + "%llu" + std::string(line.suffix);
}

/// Writes lines 0 .. count-1 of `line` (the Go buffering experiment's
/// `fmt.Sprintf("Line %d: ...\n", i)`). Throws `io_error` when a call fails.
using PutLines = void (*)(const Sink& sink, const NumberedLine& line, std::uint64_t count);

/// Writes every value of `values`, in order, each followed by '\n', as text
/// that std::from_chars parses back to the identical double (the shortest
/// round-trip form, or any other exact one such as printf's "%.17g"). The
/// values are finite. Throws `io_error` when a call fails.
using PutDoubles = void (*)(const Sink& sink, std::span<const double> values);

/// Writes `bytes`, formatted before the call (outside the measurement), to a
/// new file (or, for a method with `overwrites_existing`, over the existing
/// file of their size): the operation of the `limit` references, which show
/// what the kernel alone costs for a workload's bytes. Throws `io_error`.
using PutPrepared = void (*)(const Sink& sink, std::span<const char> bytes);

/// Copies `bytes`, formatted before the call, into `to` (as many bytes, every
/// page of it touched before the call): the operation of the `memcpy`
/// reference, the machine's memory copy of a workload's bytes with no file and
/// no system call. `to.size()` equals `bytes.size()`. Throws nothing.
using CopyPrepared = void (*)(std::span<char> to, std::span<const char> bytes);

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
/// (the write-up "Console Output Benchmark (C/Linux x64)", docs/results/README.md#sources); their arguments and the
/// exact text each produces are in iobench/console_format.hpp and
/// workloads/console_messages.hpp.
enum class ConsoleFormat {
    int_value,    ///< printf("Value: %d\n", 12345)
    float_value,  ///< printf("Value: %.2f\n", 123.45)
    string_int,   ///< printf("Message: %s, Count: %d\n", "Hello", 42)
    int_string,   ///< printf("Value: %d, String: %s\n", 42, "test")
    datetime,     ///< printf("[%04d-%02d-%02d %02d:%02d:%02d] %s: %d (%.2f%%)\n", ...)
};

/// Prints message `format` `count` times to standard output, formatting its
/// arguments (iobench/console_format.hpp) with the method's own call every time, then
/// flushes as PutConsole does. Throws `io_error`.
using PrintConsole = void (*)(const StdoutSink& out, ConsoleFormat format, std::uint64_t count);

/// Target encoding of a Transcode operation: `Encoding` (iobench/encoding.hpp).

/// Converts the whole UTF-8 file `source` to `to`, writing the result to the
/// file `sink` (created or truncated, closed within the call). Streams
/// through bounded buffers unless the method says otherwise. Throws
/// `io_error` when a call fails, `parse_error` when the input is not valid
/// UTF-8, `unavailable_error` when the method has no converter for `to` here
/// (a locale or code page not installed).
using Transcode = void (*)(const Source& source, const Sink& sink, Encoding to);

/// Every operation a Method can have, in one list: X(function type, Method
/// member, what it does). Method's slots, operation_fields(), the operation
/// names and the Operations table of docs/methods.md (`iobench --list --format
/// md`) are generated from it: adding an operation is its function type above,
/// one line here, and the methods that implement it and the workload that takes it.
#define IOBENCH_OPERATIONS(X)                                                                                 \
    X(PutInts, put_ints, "writes the integers 0..N-1 in decimal, one per line")                               \
    X(PutRepeat, put_repeat, "writes one line N times")                                                       \
    X(GetInts, get_ints, "reads white-space separated decimal integers into a vector")                        \
    X(PutLines, put_lines, "writes N numbered lines (prefix, number, suffix)")                                \
    X(PutDoubles, put_doubles, "writes doubles as round-trip text, one per line")                             \
    X(PutPrepared, put_prepared, "writes bytes formatted before the call (the limit references)")             \
    X(CopyPrepared, copy_prepared, "copies bytes formatted before the call to memory (the memcpy reference)") \
    X(PutConsole, put_console, "writes one line N times to standard output")                                  \
    X(PrintConsole, print_console, "prints a formatted message N times to standard output")                   \
    X(ReadBytes, read_bytes, "reads a file to its end, folding every byte")                                   \
    X(GetDoubles, get_doubles, "reads round-trip decimal doubles into a vector, bit for bit")                  \
    X(Transcode, transcode, "converts a UTF-8 file to another encoding")                                      \
    X(PutInts, put_ints_locale, "put_ints with the user's locale, digits grouped as it groups them")          \
    X(GetInts, get_ints_locale, "get_ints with the user's locale, reading digits grouped as it groups them")

/// The operations by name, in the order IOBENCH_OPERATIONS lists them: what
/// a workload declares it takes (WorkloadSpec::operation, core/engine/workload.hpp).
/// `operation_fields()[static_cast<std::size_t>(op)]` is the operation's field.
enum class Operation {
#define IOBENCH_OPERATION_ENUMERATOR(type, member, summary) member,
    IOBENCH_OPERATIONS(IOBENCH_OPERATION_ENUMERATOR)
#undef IOBENCH_OPERATION_ENUMERATOR
};

/// Number of operations IOBENCH_OPERATIONS lists (a Method's slots).
#define IOBENCH_OPERATION_COUNT(type, member, summary) +1
inline constexpr int operation_count = 0 IOBENCH_OPERATIONS(IOBENCH_OPERATION_COUNT);
#undef IOBENCH_OPERATION_COUNT

/// Marks, in a registrar entry, an operation the method has but that is not
/// built on this platform or configuration: the method is still paired with
/// the workloads that need the operation, and those pairs are listed as
/// skipped with the reason. No function is needed.
struct NotBuilt {
    /// Why, for an operation of a method that is otherwise built here;
    /// nullptr when the method's `unavailable` (or its family's) says why.
    const char* reason = nullptr;
};
/// An operation not built here, the method's `unavailable` saying why:
/// `.put_ints = not_built`.
inline constexpr NotBuilt not_built{};
/// An operation not built here although its method is (fast_io_obuf_file's
/// put_ints_locale without fast_io's locale support): the pairs that need it
/// are listed as skipped with `reason`, the method's other pairs run.
constexpr NotBuilt not_built_because(const char* reason) { return NotBuilt{reason}; }

/// Marks, in a registrar entry, an operation that the method's program
/// performs (Method::program, docs/external-methods.md): there is no function
/// in this process, the runner asks the program for each run.
struct ByProgram {};
/// An operation a program method's program performs: `.put_ints = by_program`.
inline constexpr ByProgram by_program{};

/// One operation of a Method: its function, `not_built`, `by_program`, or
/// nothing (the method lacks the operation). Converts to the function pointer (nullptr
/// unless built), so it is called and tested as one; `present()` says whether
/// the method has the operation at all, built here or not.
template <class Fn>
class Op {
public:
    constexpr Op() = default;
    /// The operation's function (or nullptr: the method lacks it).
    template <class F>
        requires std::is_convertible_v<F, Fn>
    constexpr Op(F f) : fn_(f) {}
    /// An operation the method has, not built here.
    constexpr Op(NotBuilt marker) : not_built_(true), reason_(marker.reason) {}
    /// An operation the method's program performs (no function here).
    constexpr Op(ByProgram) : by_program_(true) {}
    /// True when the method has the operation (built here or not, by a
    /// function or by the method's program).
    bool present() const { return fn_ != nullptr || not_built_ || by_program_; }
    /// True when the method's program performs it (Method::program).
    bool by_program() const { return by_program_; }
    /// Why the operation is not built here: "" when it is, or the method
    /// lacks it; the reason given to not_built_because, else "not built here".
    std::string_view why_not_built() const {
        if (!not_built_) return {};
        return reason_ && *reason_ ? reason_ : "not built here";
    }
    /// The function; nullptr when the method lacks the operation, it is not
    /// built, or the method's program performs it.
    constexpr operator Fn() const { return fn_; }

private:
    Fn fn_ = nullptr;
    bool not_built_ = false;
    bool by_program_ = false;
    const char* reason_ = nullptr;
};

}  // namespace iobench

// The per-call shape (Calls, LogRecord): it needs Sink and Op.
#include <iobench/calls.hpp>

namespace iobench {

/// How to start the program that implements a method in another language
/// (docs/external-methods.md): the interpreter's words, then the program file,
/// then the protocol's arguments (method, operation, path, count, buffer size,
/// the operation's own). Empty `file`: a method of this process.
struct ProgramCommand {
    /// The runtime that runs `file`, argv[0] (an absolute path) and its
    /// options first ({"/usr/bin/java", "-jar"}); empty for an executable.
    std::vector<std::string> interpreter{};
    /// The program, as an absolute path where the build put it
    /// (core/programs/program.hpp says where an installed iobench looks for it).
    std::string file{};
};

/// One I/O method: the function a user calls, and the operations it implements.
/// Operations it lacks stay empty; the runner does not pair it with workloads
/// that need them. An operation the method has but this build lacks is
/// `not_built` (with `unavailable` saying why): no stand-in function.
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
    /// True for a reference row whose run writes over an existing file of the
    /// output's full size instead of a new one (`limit_overwrite`): before each
    /// run, outside the measurement, the trial writes that file (zeros, then
    /// fsync), so the run finds the file's page-cache pages already there and
    /// its time is the copy without the kernel's supply of new pages
    /// (docs/methodology.md, "Where a new file's pages come from"). Rows are
    /// never given as multiples of such a row.
    bool overwrites_existing = false;
    /// Why the operating system's call counters say nothing about this
    /// method's I/O (io_uring: requests go through the ring, not read(2) or
    /// write(2) calls); empty when they do. Its rows then carry no
    /// read_calls, write_calls or bytes_per_call rather than a 0 that would
    /// mean "no I/O", and the summary shows "-" there.
    std::string calls_not_counted{};
    /// True when the method does part of its I/O on threads of its own (a
    /// writer thread; io_uring's io-wq workers): its rows count the whole
    /// process's calls and CPU time (OsScope::process: /proc/self/io and
    /// RUSAGE_SELF on Linux, GetProcessTimes on Windows), so that what those
    /// threads did is in them; false: the calling thread's alone. The JSON
    /// row then says "counters_scope": "process".
    bool process_counters = false;

    // The operations (IOBENCH_OPERATIONS): `Op<PutInts> put_ints{};` and so on.
#define IOBENCH_OPERATION_MEMBER(type, member, summary) Op<type> member{};
    IOBENCH_OPERATIONS(IOBENCH_OPERATION_MEMBER)
#undef IOBENCH_OPERATION_MEMBER

    /// The program that performs the method's operations (those marked
    /// `by_program`) when the method is implemented in another language
    /// (docs/external-methods.md): iobench starts it once per trial and asks it
    /// for every run. Its rows carry the program's counters ("counters_scope":
    /// "program"). Empty for a method of this process.
    ProgramCommand program{};

    /// The per-call shape (iobench/calls.hpp): open a sink, one call per
    /// item, close; what the rows with `/threads:N` in their name call, each
    /// call timed for the latency percentiles. A `static constexpr Calls` of
    /// the method file (`.calls = &stdio_calls`), which several methods may
    /// share; nullptr for a method with whole-run operations only.
    const Calls* calls = nullptr;

    /// True when read_bytes maps the whole file into the address space (mmap,
    /// MapViewOfFile) instead of streaming it through a bounded buffer: a file
    /// larger than memory still works on a 64-bit system (the mapped pages are
    /// clean and reclaimable), but not one larger than the address space.
    bool maps_file = false;
};

/// The per-call shape of `method`: *method.calls, or an empty Calls (no
/// call present) for a method without one.
inline const Calls& calls_of(const Method& method) {
    static constexpr Calls none{};
    return method.calls ? *method.calls : none;
}

/// One operation of Method, by its member's name: what `--list --format md`
/// lists, and how it finds the workloads that take an operation.
struct OperationField {
    std::string_view name;           ///< the member's name: "put_ints", "put_repeat", ...
    std::string_view summary;        ///< what the operation does, one line (IOBENCH_OPERATIONS)
    bool (*present)(const Method&);  ///< true when a method has the operation (built here or not)
    /// Op::why_not_built of a method's operation: "" when built or absent.
    std::string_view (*why_not_built)(const Method&);
    void (*clear)(Method&);          ///< removes the operation from a method
};

/// Every operation of Method, in the order IOBENCH_OPERATIONS lists them
/// (and Method declares them: both are generated from that list).
IOBENCH_API std::span<const OperationField> operation_fields();

/// The field of operation `op`: its name, summary and presence test.
IOBENCH_API const OperationField& operation_field(Operation op);

/// The names of the operations `method` has, built here or not, in the order
/// of operation_fields().
IOBENCH_API std::vector<std::string_view> operation_names(const Method& method);

/// Adds a method to the registry. Throws `std::logic_error` when a method of the
/// same name is already registered (two families must not claim one name).
IOBENCH_API void register_method(Method method);

/// Every registered method, in registration order by family then name.
IOBENCH_API const std::vector<Method>& methods();

/// The method called `name`, or nullptr.
IOBENCH_API const Method* find_method(std::string_view name);

/// What every method of a family shares, given once to its MethodRegistrar.
struct FamilyDefaults {
    std::string family;  ///< Method::family of every entry: the file in methods/ ("stdio", "posix", ...)
    /// Method::unavailable of every entry that sets none: why the whole family
    /// is not built here ("POSIX only: not built on Windows"); empty when it is.
    std::string unavailable{};
};

/// True for a name a method or a family may have: letters, digits and
/// "_.+-", not empty (a '/' would make another benchmark name, a blank
/// another word). register_family and the plugin loader refuse any other.
IOBENCH_API bool valid_name(std::string_view name);

/// Where a method family comes from.
enum class FamilyOrigin {
    own,    ///< iobench's own (methods/, and families of iobench's tests)
    added,  ///< added by a user: a plugin's (--plugin), or built in with iobench_add_executable
};

/// Registers `list` as methods of the family `defaults` says (its name, and
/// its `unavailable` for every entry that gives none), all or none: throws
/// `std::logic_error`, registering nothing, when an entry names another
/// family, or a name is taken (by a registered method or another entry).
/// An `added` family's methods join every suite that names its methods
/// (is_added_family).
IOBENCH_API void register_family(const FamilyDefaults& defaults, std::span<const Method> list,
                                 FamilyOrigin origin = FamilyOrigin::own);

/// True for a family registered as FamilyOrigin::added: a suite that lists
/// its methods by name runs this family's methods beside them too, on every
/// workload of the suite they can run (their default buffer size), so that
/// `--suite quick` shows a user's methods beside fwrite and obuf.
IOBENCH_API bool is_added_family(std::string_view family);

/// What went wrong in the MethodRegistrars of this executable at start-up
/// (a method name registered twice, an entry naming another family), one
/// line each: iobench refuses to run, exit 2, while this is not empty.
IOBENCH_API const std::vector<std::string>& registration_errors();

}  // namespace iobench

// The plugin side: build identity, entry points, a plugin's registrar.
#include <iobench/plugin.hpp>
// Not the API: the compiler's identity and the registrars of iobench's own
// families and of iobench_add_executable's.
#include <iobench/detail_build.hpp>

namespace iobench {

/// What the file of a family built into an executable with
/// iobench_add_executable was compiled with: the results' context lists it
/// per family (added_families), since that compiler need not be iobench's.
struct FamilyBuild {
    std::string family;            ///< FamilyDefaults::family
    std::string compiler;          ///< as the compiler's own macros name it: "Clang 14.0.6", "GNU 12.2.0"
    std::string standard_library;  ///< "libstdc++ 20230528, C++11 ABI", ...
    std::string build_type;        ///< CMake's build type of the executable: "Release", ..., "none"
};

/// The families registered by registrars::Added, with what each was compiled
/// with, in registration order; empty in an executable without any.
IOBENCH_API const std::vector<FamilyBuild>& added_family_builds();

/// Registers a family's methods from a static initializer:
/// `const iobench::MethodRegistrar registrar{{.family = "stdio"}, { {.name = "fprintf", ...}, ... }};`
/// A family whose entry names another family, or whose method name is taken,
/// is not registered: the error is kept in registration_errors(), and
/// iobench exits 2 saying it before anything runs. Which registrar this is
/// depends on where the file is built, the file says the same everywhere:
/// iobench's own (methods/), a user's executable (iobench_add_executable
/// defines IOBENCH_ADDED_FAMILY), or a plugin (iobench_add_plugin defines
/// IOBENCH_PLUGIN: the plugin keeps the family until iobench has checked it).
#if defined(IOBENCH_PLUGIN)
using MethodRegistrar = plugin::Registrar;
#elif defined(IOBENCH_ADDED_FAMILY)
using MethodRegistrar = registrars::Added;
#else
using MethodRegistrar = registrars::Own;
#endif

}  // namespace iobench
