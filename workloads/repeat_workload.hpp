// A workload that writes one line N times through put_repeat (hello, endl):
// the line, the published count and the names are its only differences.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "workloads/output_trial.hpp"
#include "data/text.hpp"

namespace iobench {

/// Writes `line` (its '\n' included) `published_count` x scale times with the
/// method's put_repeat; verified against the same line repeated by the generator.
class RepeatWorkload : public Workload {
public:
    RepeatWorkload(std::string_view name, std::string_view description, std::string_view line,
                   std::uint64_t published_count)
        : name_(name), description_(description), line_(line), published_count_(published_count) {}

    std::string_view name() const override { return name_; }
    std::string_view item_unit() const override { return "line"; }
    std::string_view description() const override { return description_; }
    std::uint64_t default_count() const override { return published_count_; }
    bool supports(const Method& m) const override { return m.put_repeat.present() || is_output_reference(m); }
    std::unique_ptr<Trial> make_trial(const Method& m, const Params& p, Session& s) const override {
        const std::uint64_t count = s.scaled(published_count_);
        return make_output_trial(s, name_, m, p, fmt::format("{}:{}", name_, count), repeated_text(line_, count), count,
                                 [put = PutRepeat(m.put_repeat), line = line_, count](const Sink& sink) {
                                     put(sink, line, count);
                                 });
    }

private:
    std::string name_;
    std::string description_;
    std::string_view line_;  // a string literal of the registering file
    std::uint64_t published_count_;
};

}  // namespace iobench
