// Workloads from outside (docs/plugins.md, "Your own workload"): your own
// lines, your own records, written by every method with a per-call shape
// (put_line: fprintf, write, ofstream, obuf, a logger of your own, ...) one
// call per line, from one thread or several, every call timed and every line
// checked as iobench's own workloads are. A workload file registers itself as a
// method file does, and builds the same three ways: in iobench's tree, into
// your executable (iobench_add_executable), into a plugin (iobench_add_plugin).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <iobench/method.hpp>

namespace iobench {

/// The fields of one record, as a LinesWorkload's `record` function adds
/// them: one per "{}" of the workload's `record_format`, in its order. A text
/// is copied (the caller's string may go); the storage is kept from one
/// record to the next, so that no record after the first few allocates.
class RecordFields {
public:
    /// Adds an integer field (printed in decimal).
    void integer(std::int64_t value) {
        Field field;
        field.integer = value;
        add(field, npos, 0);
    }
    /// Adds a double field (printed as {fmt}'s "{}": its shortest round-trip text).
    void real(double value) {
        Field field;
        field.kind = Field::Kind::real;
        field.real = value;
        add(field, npos, 0);
    }
    /// Adds a text field (printed as it is; no '\n').
    void text(std::string_view value) {
        const std::size_t at = texts_.size();
        texts_.append(value);
        texts_.push_back('\0');  // NUL-terminated, as Field::text says
        Field field;
        field.kind = Field::Kind::text;
        add(field, at, value.size());
    }
    /// Removes every field (the storage stays).
    void clear() {
        fields_.clear();
        text_spans_.clear();
        texts_.clear();
    }
    /// How many fields were added.
    std::size_t size() const { return fields_.size(); }
    /// The record of these fields with `format`, valid until the next change.
    FieldsRecord record(std::string_view format, AnchorMessage message = AnchorMessage::none) {
        for (std::size_t k = 0; k < fields_.size(); ++k)
            if (text_spans_[k].first != npos)
                fields_[k].text = std::string_view(texts_.data() + text_spans_[k].first, text_spans_[k].second);
        return {format, fields_.data(), fields_.size(), message};
    }

private:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    void add(const Field& field, std::size_t text_at, std::size_t text_size) {
        fields_.push_back(field);
        text_spans_.emplace_back(text_at, text_size);
    }
    std::vector<Field> fields_;
    /// Each field's (offset, size) in texts_ for a text, else (npos, 0).
    std::vector<std::pair<std::size_t, std::size_t>> text_spans_;
    std::string texts_;
};

/// A workload of lines that you give, as text or as typed records. Text:
/// line i is whatever `line(i, out)` appends, and each line is one put_line
/// call of the method (Calls::put_line). Typed records: record i is the
/// fields `record(i, out)` adds, which each method formats itself with
/// `record_format` (one put_fields call, Calls::put_fields; FieldsRecord
/// says how), and the line is iobench's own formatting of it. Its rows are
/// per-call rows (`<name>/<method>/threads:<n>`) and a `limit` row (the same
/// bytes, prepared in memory, written in 1 MiB system calls).
struct LinesWorkload {
    std::string name;         ///< benchmark-name part: letters, digits and "_.+-" (valid_name)
    std::string description;  ///< one line for --list
    std::string item_unit = "line";  ///< what one line is, singular ("record", "request"): the rows' item_unit
    std::uint64_t default_count = 0;  ///< lines at scale 1 (--scale multiplies it); at least 1
    /// Appends line `i` to `out` (0 <= i < count): not empty, ending with its
    /// only '\n', without a '\0', the same text for the same i on every call,
    /// thread and platform, and no two lines alike (a line names its item: a
    /// sequence number, a timestamp, as a log's records do). Called outside
    /// the measurement; may be called from several threads at once.
    void (*line)(std::uint64_t i, std::string& out) = nullptr;
    /// Typed records instead of `line`: the format of every record
    /// (FieldsRecord::format: "{}" for each field, no other brace, no '\n').
    std::string record_format{};
    /// Typed records instead of `line`: adds the fields of record i to `out`
    /// (empty when called), one per "{}" of `record_format`; the same fields
    /// for the same i on every call, thread and platform, and no two records'
    /// lines alike. Called outside the measurement; may be called from
    /// several threads at once.
    void (*record)(std::uint64_t i, RecordFields& out) = nullptr;
    /// Which of the anchor's messages the records are (FieldsRecord::message):
    /// iobench's `log_ints_double` and `log_ints_string` say so; leave yours none.
    AnchorMessage message = AnchorMessage::none;
};

/// Most lines a LinesWorkload may have at its scale (the check keeps an
/// index of 16 bytes a line while it reads the output back).
inline constexpr std::uint64_t max_lines_workload_count = 100'000'000;

namespace registrars {
/// Registers a LinesWorkload of this executable (iobench's own tree, or a
/// user's executable built with iobench_add_executable). A workload whose
/// name is not valid or taken, or that has no `line` or a count of 0, is not
/// registered: the error is kept in registration_errors(), and iobench
/// exits 2 saying it before anything runs.
struct Lines {
    IOBENCH_API explicit Lines(const LinesWorkload& workload);
};
}  // namespace registrars

namespace plugin {
/// The LinesRegistrar of a workload file built into a plugin: keeps the
/// workload in the plugin (core/plugins/plugin_entry.cpp) until iobench has
/// checked the plugin's identity. Never throws, never calls into iobench.
struct IOBENCH_PLUGIN_LOCAL Lines {
    explicit Lines(const LinesWorkload& workload) noexcept;
};
/// Name of the plugin's entry point returning the workloads its registrars
/// kept (`const std::vector<iobench::LinesWorkload>* iobench_plugin_workloads(void)`).
inline constexpr const char workloads_symbol[] = "iobench_plugin_workloads";
/// Type of the entry point `workloads_symbol`.
using WorkloadsFn = const std::vector<LinesWorkload>* (*)();
}  // namespace plugin

/// Registers a workload of lines from a static initializer:
/// `const iobench::LinesRegistrar registrar{{.name = "my_log", .description = "...", .default_count = 1'000'000, .line = my_line}};`
/// The same file builds in iobench's tree, into an executable of yours and
/// into a plugin (as MethodRegistrar does).
#if defined(IOBENCH_PLUGIN)
using LinesRegistrar = plugin::Lines;
#else
using LinesRegistrar = registrars::Lines;
#endif

}  // namespace iobench
