// hello: fast_io's "Output 100000000x Hello World" table
// (shared/seeds/fast_io-readme.md): 100,000,000 lines of "Hello World\n", 1.2 GB.
#include <fmt/format.h>

#include "core/output_trial.hpp"
#include "data/text.hpp"

namespace iobench {
namespace {

constexpr std::uint64_t published_count = 100'000'000;
constexpr std::string_view line = "Hello World\n";

class HelloTrial final : public OutputTrial {
public:
    HelloTrial(Session& s, const Method& m, const Params& p, std::uint64_t count)
        : OutputTrial(s, "hello", m, p, fmt::format("hello:{}", count), repeated_text(line, count)),
          put_(m.put_repeat),
          count_(count) {
        items = count;
    }
    void run() override { put_(sink_, line, count_); }

private:
    PutRepeat put_;
    std::uint64_t count_;
};

class Hello final : public Workload {
public:
    std::string_view name() const override { return "hello"; }
    std::string_view description() const override {
        return "write \"Hello World\\n\" N times (N = 100M, 1.2 GB)";
    }
    std::uint64_t default_count() const override { return published_count; }
    bool supports(const Method& m) const override { return m.put_repeat != nullptr; }
    std::unique_ptr<Trial> make_trial(const Method& m, const Params& p, Session& s) const override {
        return std::make_unique<HelloTrial>(s, m, p, s.scaled(published_count));
    }
};

const WorkloadRegistrar<Hello> hello_registrar;

}  // namespace
}  // namespace iobench
