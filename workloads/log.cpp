// log: a logger's records (iobench/calls.hpp, LogRecord): a timestamp in
// microseconds, a level, a logger name and a message with two integers and a
// short string, 60 to 200 bytes a line, which each method formats itself with
// one call per record. Every row is a per-call row (`/threads:<n>`), checked
// byte for byte against the reference formatting (data/log_records.hpp).
#include <fmt/format.h>

#include <cstdint>
#include <string_view>

#include "core/engine/call_trial.hpp"
#include "core/engine/session.hpp"
#include "data/log_records.hpp"

namespace iobench {
namespace {

/// 1M records at scale 1: about 128 MB (spdlog's own benchmark logs 250,000
/// to 1,000,000 messages).
constexpr std::uint64_t published_count = 1'000'000;

class Log final : public Workload {
public:
    Log()
        : Workload({.name = "log",
                    .description = "format and write N log records, one call each (N = 1M, about 128 MB): time, "
                                   "level, logger, a message with two integers and a string",
                    .item_unit = "record",
                    .default_count = published_count,
                    .reference = ReferenceKind::output,
                    .call_item = CallItem::put_record,
                    .calls_only = true}) {}
    ExpectedOutput expected_output(Session& s) const override {
        const std::uint64_t n = count(s);
        return {fmt::format("log:{}", n), log_text(n), n};
    }

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params&, Session&) const override {
        throw std::logic_error(fmt::format("log has per-call rows only ({})", m.name));
    }
    /// One put_record(record i) per call; the record is made before the call's clock starts.
    std::unique_ptr<Trial> make_call_trial(const Method& m, const Params& p, Session& s) const override {
        struct Item {
            PutRecordCall put;
            LogRecord arg(std::uint64_t i) const { return log_record(i); }
            void call(CallSink sink, const LogRecord& r) const { put(sink, r); }
        };
        return std::make_unique<CallTrial<Item>>(s, name(), m, p, CallLines{expected_output(s), identify},
                                                 Item{calls_of(m).put_record});
    }

private:
    /// The record whose line `line` is exactly (its `request`), or -1.
    static std::int64_t identify(std::string_view line) {
        constexpr std::string_view marker = "] request ";
        const std::size_t at = line.find(marker);
        if (at == std::string_view::npos) return -1;
        std::uint64_t i = 0;
        std::size_t digits = 0;
        for (std::size_t k = at + marker.size(); k < line.size() && line[k] >= '0' && line[k] <= '9'; ++k, ++digits)
            i = i * 10 + static_cast<unsigned>(line[k] - '0');
        if (digits == 0 || digits > 18) return -1;
        return log_line(i) == line ? static_cast<std::int64_t>(i) : -1;
    }
};

const WorkloadRegistrar<Log> log_registrar;

}  // namespace
}  // namespace iobench
