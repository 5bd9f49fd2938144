// What became of a benchmark: ok, failed or skipped, with the reason. The
// runner records one Outcome per benchmark; the console summary, the rows
// Google Benchmark reports (and so the JSON), the exit status and the tests
// all derive what they say from it.
#pragma once

#include <exception>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include <iobench/error.hpp>

namespace iobench {

/// How a benchmark ended, worst last.
enum class Status {
    ok,       ///< every run verified
    skipped,  ///< the method cannot run here, found at run time (`unavailable_error`): not a failure
    failed,   ///< a call failed or a run did not verify
};

/// A benchmark's outcome: its status and, unless ok, the reason.
struct Outcome {
    Status status = Status::ok;
    /// Why it failed ("verification failed: output differs: ...", "write(...):
    /// No space left on device") or why the method cannot run here ("O_DIRECT
    /// not supported by tmpfs"); empty when ok.
    std::string reason{};

    static Outcome failed(std::string reason) { return {Status::failed, std::move(reason)}; }
    static Outcome skipped(std::string reason) { return {Status::skipped, std::move(reason)}; }

    bool ok() const { return status == Status::ok; }

    /// The benchmark's `error_message` in Google Benchmark's rows and the
    /// JSON, which tools/ reads: the reason of a failure; "skipped: <reason>"
    /// for a skip (Google Benchmark 1.7 cannot skip without an error, so a
    /// skipped row has error_occurred too); "" when ok.
    std::string error_message() const { return status == Status::skipped ? "skipped: " + reason : reason; }
};

/// Calls `step()` and says how it ended: ok when it returns; skipped with
/// the reason when it throws `unavailable_error`; failed with `context`
/// followed by the message for any other exception.
template <class Step>
Outcome outcome_of(Step&& step, std::string_view context = {}) {
    try {
        step();
        return {};
    } catch (const unavailable_error& e) {
        return Outcome::skipped(e.what());
    } catch (const std::exception& e) {
        return Outcome::failed(std::string(context) + e.what());
    } catch (...) {
        // A method (a plugin's, say) may throw anything: a failed row, never
        // std::terminate.
        return Outcome::failed(std::string(context) + "an exception that is not a std::exception");
    }
}

/// The outcomes of a run's benchmarks, by benchmark name.
class Outcomes {
public:
    /// Records how one call of benchmark `name` ended. Google Benchmark calls
    /// a benchmark once per repetition (and more in the first): the worse
    /// outcome stays (failed over skipped over ok), the later of two alike.
    void record(const std::string& name, Outcome outcome) {
        const auto [it, inserted] = by_name_.try_emplace(name, outcome);
        if (!inserted && outcome.status >= it->second.status) it->second = std::move(outcome);
    }

    /// The outcome of benchmark `name`; nullptr when it has not run.
    const Outcome* find(std::string_view name) const {
        const auto it = by_name_.find(name);
        return it == by_name_.end() ? nullptr : &it->second;
    }

    /// Benchmarks that failed: exit status 1 when there are any.
    int failed() const {
        int n = 0;
        for (const auto& [name, outcome] : by_name_) n += outcome.status == Status::failed;
        return n;
    }

    /// Benchmark `name` ran fewer repetitions than the most because its
    /// time budget was spent (StopReason::budget), not because its interval
    /// was tight: the summary says which rows stopped how.
    void record_budget_spent(const std::string& name) { budget_spent_.insert(name); }

    /// True when record_budget_spent(`name`) was called.
    bool budget_spent(std::string_view name) const { return budget_spent_.find(name) != budget_spent_.end(); }

private:
    std::map<std::string, Outcome, std::less<>> by_name_;
    std::set<std::string, std::less<>> budget_spent_;
};

}  // namespace iobench
