// doubles_in: the read-back half of fast_io's 10M-double table
// (fast_io's README, https://github.com/cppfastio/fast_io): the 10,000,000 doubles of doubles_out
// (data/doubles.hpp: fixed seed, uniform in [DBL_MIN, DBL_MAX)) in their
// shortest round-trip form, one per line, parsed back into a
// std::vector<double>. Every value must come back bit for bit.
#include <fmt/format.h>

#include <bit>
#include <cstdio>
#include <memory>
#include <system_error>

#include <iobench/error.hpp>
#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"
#include "workloads/doubles_values.hpp"

namespace iobench {
namespace {

/// The doubles_in input for `count` values, written once per session.
const std::filesystem::path& doubles_input(Session& s, std::uint64_t count) {
    // At most 24 characters and a '\n' per value (the shortest round-trip form
    // of a double): the room the input may need.
    return s.input(fmt::format("doubles-{}.txt", count), 25 * count, [count](const std::filesystem::path& path) {
        write_generated_file(path, shared_doubles_text(count));
    });
}

class DoublesInTrial final : public Trial {
public:
    DoublesInTrial(Session& s, const Method& m, const Params& p, std::uint64_t count)
        : expected_(shared_doubles(count)), source_{doubles_input(s, count).string(), p.buffer_size}, get_(m.get_doubles) {
        input = true;
        items = count;
        std::error_code ec;
        bytes = std::filesystem::file_size(source_.path, ec);
        buffer_size = buffer_size_used(m, p);
        reserve_resident(values_, count);
    }
    void reset() override { values_.clear(); }
    void run() override { get_(source_, values_); }
    std::string verify() override {
        const std::vector<double>& want = *expected_;
        for (std::size_t i = 0; i < values_.size() && i < want.size(); ++i) {
            if (std::bit_cast<std::uint64_t>(values_[i]) != std::bit_cast<std::uint64_t>(want[i]))
                return fmt::format("parsed values differ: value {} is {} (bits {:016x}), expected {} (bits {:016x})", i,
                                   values_[i], std::bit_cast<std::uint64_t>(values_[i]), want[i],
                                   std::bit_cast<std::uint64_t>(want[i]));
        }
        if (values_.size() != want.size())
            return fmt::format("parsed values differ: {} doubles, expected {}", values_.size(), want.size());
        return "";
    }

private:
    std::shared_ptr<const std::vector<double>> expected_;
    Source source_;
    GetDoubles get_;
    std::vector<double> values_;
};

class DoublesIn final : public Workload {
public:
    DoublesIn()
        : Workload({.name = "doubles_in",
                    .description = "read N doubles (the doubles_out values in shortest round-trip form, one per line) "
                                   "back into a std::vector<double>, bit for bit (N = 10M; page cache warm)",
                    .operation = Operation::get_doubles,
                    .item_unit = "double",
                    .default_count = doubles_published_count,
                    .reference = ReferenceKind::input}) {}
    InputFile input_file(Session& s) const override {
        const std::uint64_t n = count(s);
        return {doubles_input(s, n), shared_doubles_text(n), n};
    }

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        return std::make_unique<DoublesInTrial>(s, m, p, count(s));
    }
};

const WorkloadRegistrar<DoublesIn> doubles_in_registrar;

}  // namespace
}  // namespace iobench
