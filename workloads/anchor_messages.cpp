// log_ints_double and log_ints_string: the two messages of the best-known
// logger benchmark (odygrd/logger_benchmarks, whose tables Quill's README
// shows), as typed records that each method formats itself (Calls::put_fields;
// an asynchronous logger formats them in its backend):
//
//     Logging int: {}, int: {}, double: {}   (i, j, i + 0.1 x i)
//     Logging int: {}, int: {}, string: {}   (i, j, "Lorem ipsum dolor sit amet, consectetur " + i)
//
// Record k is that benchmark's message j = k % 20 of its iteration i = k / 20
// (it logs 20 messages an iteration, with the same i and value); the string is
// over 35 characters, so no small-string optimisation holds it. Each line is
// checked byte for byte against {fmt}'s formatting (append_fields_line). The
// records say which message they are (FieldsRecord::message), so that a logger
// may print them through its compile-time format, as that benchmark does.
#include <cstdint>
#include <string>

#include <iobench/workload.hpp>

namespace iobench {
namespace {

/// Messages an iteration of the anchor's loop (its MESSAGES).
constexpr std::uint64_t messages_per_iteration = 20;

/// 1M records at scale 1 (50,000 of the anchor's iterations): about 45 MB
/// of the doubles' lines, 67 MB of the strings'.
constexpr std::uint64_t default_records = 1'000'000;

void ints_double(std::uint64_t k, RecordFields& out) {
    const auto i = static_cast<std::int64_t>(k / messages_per_iteration);
    out.integer(i);
    out.integer(static_cast<std::int64_t>(k % messages_per_iteration));
    out.real(static_cast<double>(i) + (0.1 * static_cast<double>(i)));
}

void ints_string(std::uint64_t k, RecordFields& out) {
    const auto i = static_cast<std::int64_t>(k / messages_per_iteration);
    out.integer(i);
    out.integer(static_cast<std::int64_t>(k % messages_per_iteration));
    out.text("Lorem ipsum dolor sit amet, consectetur " + std::to_string(i));
}

const LinesRegistrar ints_double_registrar{
    {.name = "log_ints_double",
     .description = "the logger benchmark's message \"Logging int: {}, int: {}, double: {}\" "
                    "(odygrd/logger_benchmarks), formatted by the method: N records (N = 1M), one call each",
     .item_unit = "record",
     .default_count = default_records,
     .record_format = "Logging int: {}, int: {}, double: {}",
     .record = ints_double,
     .message = AnchorMessage::ints_double}};

const LinesRegistrar ints_string_registrar{
    {.name = "log_ints_string",
     .description = "the logger benchmark's message \"Logging int: {}, int: {}, string: {}\" (a string of "
                    "over 40 characters), formatted by the method: N records (N = 1M), one call each",
     .item_unit = "record",
     .default_count = default_records,
     .record_format = "Logging int: {}, int: {}, string: {}",
     .record = ints_string,
     .message = AnchorMessage::ints_string}};

}  // namespace
}  // namespace iobench
