// A workload that writes one line N times through put_repeat (hello, endl):
// the line, the published count and the names are its only differences.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "core/engine/call_trial.hpp"
#include "core/engine/output_trial.hpp"
#include "core/engine/session.hpp"
#include "core/programs/program_trial.hpp"
#include "data/text.hpp"

namespace iobench {

/// Writes `line` (its '\n' included) `published_count` x scale times with the
/// method's put_repeat; verified against the same line repeated by the generator.
class RepeatWorkload : public Workload {
public:
    /// `per_call`: the workload has per-call rows too (Calls::put_line).
    RepeatWorkload(std::string_view name, std::string_view description, std::string_view line,
                   std::uint64_t published_count, bool per_call = false)
        : Workload({.name = std::string(name),
                    .description = std::string(description),
                    .operation = Operation::put_repeat,
                    .item_unit = "line",
                    .default_count = published_count,
                    .reference = ReferenceKind::output,
                    .program_methods = true,
                    .call_item = per_call ? CallItem::put_line : CallItem::none}),
          line_(line) {}

    ExpectedOutput expected_output(Session& s) const override {
        const std::uint64_t n = count(s);
        return {fmt::format("{}:{}", name(), n), repeated_text(line_, n), n};
    }

protected:
    std::unique_ptr<Trial> make_method_trial(const Method& m, const Params& p, Session& s) const override {
        const ExpectedOutput expected = expected_output(s);
        return make_output_trial(s, name(), m, p, expected,
                                 [put = PutRepeat(m.put_repeat), line = line_, n = expected.items](const Sink& sink) {
                                     put(sink, line, n);
                                 });
    }
    std::unique_ptr<Trial> make_program_trial(const Method& m, const Params& p, Session& s) const override {
        const ExpectedOutput expected = expected_output(s);
        return std::make_unique<ProgramOutputTrial>(s, name(), m, p, expected,
                                                    ProgramCall{Operation::put_repeat, expected.items, {std::string(line_)}});
    }
    /// One put_line(line) per call; every line the same.
    std::unique_ptr<Trial> make_call_trial(const Method& m, const Params& p, Session& s) const override {
        struct Item {
            PutLineCall put;
            std::string_view line;
            std::string_view arg(std::uint64_t) const { return line; }
            void call(CallSink sink, std::string_view l) const { put(sink, l); }
        };
        CallLines lines{expected_output(s), [line = line_](std::string_view got) -> std::int64_t {
                            return got == line ? 0 : -1;
                        },
                        true};
        return std::make_unique<CallTrial<Item>>(s, name(), m, p, std::move(lines), Item{calls_of(m).put_line, line_});
    }

private:
    std::string_view line_;  // a string literal of the registering file
};

}  // namespace iobench
