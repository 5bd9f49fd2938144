// example_orders: a workload of a user's own typed records, and a team's own
// logger that formats them, as a user writes both (docs/plugins.md, "Your own
// records"). The records are fields (integers, doubles, texts) with a format of
// "{}" placeholders; every method with a per-call `put_fields` (here
// `example_logger`, and iobench's `fmt_print` and the loggers' plugins) formats
// them its own way, and iobench checks each line against its own formatting.
// It includes nothing of iobench but <iobench/workload.hpp> and
// <iobench/error.hpp>, and builds unchanged into iobench's tests, into an
// executable with iobench_add_executable and into a plugin with
// iobench_add_plugin (tests/package, tests/plugins).
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include <iobench/error.hpp>
#include <iobench/workload.hpp>

namespace {

/// Record i: an order's fill, its quantity, its price (a multiple of 0.25) and the account.
void order_fill(std::uint64_t i, iobench::RecordFields& out) {
    static const char* const accounts[] = {"ACME-01", "GLOBEX-7", "INITECH-42"};
    out.integer(static_cast<std::int64_t>(1'000'000 + i));
    out.integer(static_cast<std::int64_t>(1 + i % 500));
    out.real(100.0 + static_cast<double>(i % 400) * 0.25);
    out.text(accounts[i % 3]);
}

const iobench::LinesRegistrar registrar{{.name = "example_orders",
                                         .description = "a trading system's order fills, typed records (tests)",
                                         .item_unit = "record",
                                         .default_count = 100'000,
                                         .record_format = "order {} filled {} at {} for {}",
                                         .record = order_fill}};

// --- the team's logger: a FILE* per sink, each record formatted by hand ---

struct TeamLog {
    std::FILE* f = nullptr;
    std::string path;
};

iobench::CallSink open_log(const iobench::Sink& sink) {
    auto log = std::make_unique<TeamLog>();
    log->path = sink.path;
    log->f = std::fopen(sink.path.c_str(), "wb");
    if (!log->f) iobench::throw_errno("fopen", sink.path);
    return log.release();
}

void close_log(iobench::CallSink sink) {
    std::unique_ptr<TeamLog> log(static_cast<TeamLog*>(sink));
    const bool failed = std::ferror(log->f) != 0;
    if (std::fclose(log->f) != 0 || failed)
        throw iobench::io_error("fwrite", log->path, std::make_error_code(std::errc::io_error));
}

/// The format's text with each "{}" replaced by its field (to_chars: the
/// shortest round-trip text of a double, as {fmt}'s "{}" for these prices),
/// then one fwrite of the line.
void log_fields(iobench::CallSink sink, const iobench::FieldsRecord& r) {
    char line[512];
    char* out = line;
    char* const end = line + sizeof line - 1;
    std::size_t field = 0;
    for (std::size_t k = 0; k < r.format.size() && out < end; ++k) {
        if (r.format[k] != '{') {
            *out++ = r.format[k];
            continue;
        }
        ++k;  // the '}' of "{}"
        const iobench::Field& f = r.fields[field++];
        if (f.kind == iobench::Field::Kind::integer) out = std::to_chars(out, end, f.integer).ptr;
        else if (f.kind == iobench::Field::Kind::real) out = std::to_chars(out, end, f.real).ptr;
        else out += f.text.copy(out, static_cast<std::size_t>(end - out));
    }
#if defined(EXAMPLE_ONE_BYTE_MISTAKE)  // tests/plugins builds it so: one wrong byte in one line of 1,000
    if (r.fields[0].integer % 1000 == 999) line[0] = 'O';
#endif
    *out++ = '\n';
    std::fwrite(line, 1, static_cast<std::size_t>(out - line), static_cast<TeamLog*>(sink)->f);
}

constexpr iobench::Calls team_calls{.open = open_log, .close = close_log, .put_fields = log_fields};

const iobench::MethodRegistrar team_registrar{{.family = "example_logger"}, {
    {.name = "example_logger",
     .description = "a team's logger: records formatted by hand, one fwrite a line on a FILE* (tests)",
     .calls = &team_calls},
}};

}  // namespace
