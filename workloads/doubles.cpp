// doubles_out: fast_io's "Output 10M double in round-trip mode" table
// (fast_io's README, https://github.com/cppfastio/fast_io): 10,000,000 doubles (data/doubles.hpp),
// one per line, in a form that parses back exactly. Verification reads the
// file back and compares every parsed value with the original, bit for bit;
// methods may differ in the text (shortest form, "%.17g"), not in the values.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include <iobench/error.hpp>
#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"
#include "core/os/cleanup.hpp"
#include "core/os/page_cache.hpp"
#include "core/programs/program_trial.hpp"
#include "data/doubles.hpp"
#include "workloads/doubles_values.hpp"

namespace iobench {

std::shared_ptr<const std::vector<double>> shared_doubles(std::uint64_t count) {
    static std::shared_ptr<const std::vector<double>> cached;
    if (!cached || cached->size() != count)
        cached = std::make_shared<const std::vector<double>>(random_doubles(count));
    return cached;
}

Generator shared_doubles_text(std::uint64_t count) {
    return [values = shared_doubles(count)](const ChunkFn& emit) { shortest_doubles_text(*values)(emit); };
}

namespace {

/// Parses one line's text as a double; false when it is not exactly one number.
bool parse_double(const char* first, const char* last, double& value) {
#if defined(__cpp_lib_to_chars)
    const auto [ptr, ec] = std::from_chars(first, last, value);
    return ec == std::errc() && ptr == last;
#else
    // Standard libraries without floating-point from_chars: strtod in the "C" locale.
    std::string text(first, last);
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return !text.empty() && end == text.c_str() + text.size();
#endif
}

/// Reads the doubles_out file at `path` and compares it with `expected`.
/// Returns "" when every line parses back to the expected value, bit for bit;
/// otherwise says where and what differs. Sets `size` to the file's size.
std::string check_doubles_file(const std::string& path, const std::vector<double>& expected, std::uint64_t& size) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return fmt::format("cannot read the output back: fopen({}) failed", path);
    std::vector<char> buf(1 << 20);
    std::size_t have = 0;  // bytes of an incomplete line carried at the start of buf
    std::uint64_t index = 0;
    size = 0;
    std::string problem;
    for (;;) {
        if (have == buf.size()) {
            problem = fmt::format("line {} is longer than {} bytes", index + 1, buf.size());
            break;
        }
        const std::size_t n = std::fread(buf.data() + have, 1, buf.size() - have, f);
        size += n;
        const char* p = buf.data();
        const char* const end = buf.data() + have + n;
        while (problem.empty()) {
            const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
            if (!nl) break;
            double v = 0;
            if (!parse_double(p, nl, v)) {
                problem = fmt::format("line {} is not a number: \"{}\"", index + 1,
                                      std::string_view(p, static_cast<std::size_t>(std::min<std::ptrdiff_t>(nl - p, 40))));
            } else if (index >= expected.size()) {
                problem = fmt::format("more than the {} expected values", expected.size());
            } else if (std::bit_cast<std::uint64_t>(v) != std::bit_cast<std::uint64_t>(expected[index])) {
                problem = fmt::format("value {} differs: \"{}\" parses to {} (bits {:016x}), expected {} (bits {:016x})",
                                      index, std::string_view(p, static_cast<std::size_t>(nl - p)), v,
                                      std::bit_cast<std::uint64_t>(v), expected[index],
                                      std::bit_cast<std::uint64_t>(expected[index]));
            }
            ++index;
            p = nl + 1;
        }
        if (!problem.empty()) break;
        have = static_cast<std::size_t>(end - p);
        std::memmove(buf.data(), p, have);
        if (n == 0) {
            if (std::ferror(f)) problem = "cannot read the output back: fread failed";
            else if (have != 0) problem = fmt::format("the last line (value {}) does not end with '\\n'", index);
            break;
        }
    }
    std::fclose(f);
    if (problem.empty() && index != expected.size())
        problem = fmt::format("{} values, expected {}", index, expected.size());
    return problem.empty() ? "" : "parsed values differ: " + problem;
}

class DoublesOutTrial : public Trial {
public:
    DoublesOutTrial(Session& s, const Method& m, const Params& p, std::uint64_t count)
        : sink_{s.output(fmt::format("doubles_out-{}", m.name)).string(), p.buffer_size},
          put_(m.put_doubles),
          values_(shared_doubles(count)) {
        items = count;
        buffer_size = buffer_size_used(m, p);
    }
    // The output's size is known after the first run (verify sets bytes);
    // before it, 25 bytes a value bound it ("-1.2345678901234567e-308\n").
    void reset() override { remove_and_settle(sink_.path, bytes ? bytes : values_->size() * 25); }
    void run() override { put_(sink_, *values_); }
    std::string verify() override { return check_doubles_file(sink_.path, *values_, bytes); }
    void finish() override {
        std::error_code ec;
        std::filesystem::remove(sink_.path, ec);
        forget_on_interrupt(sink_.path);
    }

protected:
    Sink sink_;

private:
    PutDoubles put_;
    std::shared_ptr<const std::vector<double>> values_;
};

/// The values as a program method reads them: `count` IEEE 754 binary64
/// values, little-endian, in a file of the session (docs/external-methods.md).
const std::filesystem::path& doubles_binary_input(Session& s, std::uint64_t count) {
    return s.input(fmt::format("doubles-{}.f64", count), count * 8, [count](const std::filesystem::path& path) {
        const auto values = shared_doubles(count);
        std::vector<unsigned char> bytes(values->size() * 8);
        for (std::size_t i = 0; i < values->size(); ++i) {
            const auto bits = std::bit_cast<std::uint64_t>((*values)[i]);
            for (int b = 0; b < 8; ++b) bytes[8 * i + static_cast<std::size_t>(b)] = static_cast<unsigned char>(bits >> (8 * b));
        }
        std::FILE* f = std::fopen(path.string().c_str(), "wb");
        if (!f) throw_errno("fopen", path.string());
        const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
        if (std::fclose(f) != 0 || !written) throw io_error("fwrite", path.string(), std::make_error_code(std::errc::io_error));
    });
}

/// doubles_out by a program method: the values from doubles_binary_input,
/// every value of its output parsed back as for any method.
class ProgramDoublesOutTrial final : public DoublesOutTrial {
public:
    ProgramDoublesOutTrial(Session& s, const Method& m, const Params& p, std::uint64_t count)
        : DoublesOutTrial(s, m, p, count),
          runner_(m, ProgramCall{Operation::put_doubles, count, {doubles_binary_input(s, count).string()}}, sink_.path,
                  p.buffer_size, s) {
        work_in_child = true;
    }
    void run() override { runner_.run(*this); }
    std::optional<double> measured_seconds() const override { return runner_.seconds(); }
    std::optional<OsCounters> measured_counters() const override { return runner_.counters(); }
    void finish() override {
        runner_.finish(counters);
        DoublesOutTrial::finish();
    }
    std::string finish_problem() const override { return runner_.problem(); }

private:
    ProgramRunner runner_;
};

class DoublesOut final : public Workload {
public:
    DoublesOut()
        : Workload({.name = "doubles_out",
                    .description = "write N doubles (uniform in [DBL_MIN, DBL_MAX), fixed seed), one per line, exactly "
                                   "round-trippable; every value parsed back and compared bit for bit (N = 10M)",
                    .operation = Operation::put_doubles,
                    .item_unit = "double",
                    .default_count = doubles_published_count,
                    .reference = ReferenceKind::output,
                    .program_methods = true}) {}
    /// The shortest round-trip text of the values: what the generator writes
    /// is exact by construction, so the `limit` row's digest check suffices.
    ExpectedOutput expected_output(Session& s) const override {
        const std::uint64_t n = count(s);
        return {fmt::format("doubles_text:{}", n), shared_doubles_text(n), n};
    }

protected:
    /// Methods may differ in the text, not in the values: every value is parsed back.
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        return std::make_unique<DoublesOutTrial>(s, m, p, count(s));
    }
    std::unique_ptr<Trial> make_program_trial(const Method& m, const Params& p, Session& s) const override {
        return std::make_unique<ProgramDoublesOutTrial>(s, m, p, count(s));
    }
};

const WorkloadRegistrar<DoublesOut> doubles_out_registrar;

}  // namespace
}  // namespace iobench
