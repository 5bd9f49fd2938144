#include "core/runner.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "core/error.hpp"

namespace iobench {

namespace {

using clock_type = std::chrono::steady_clock;

/// Prints which benchmark is running, once per benchmark, and again for each
/// further repetition when runs are slow enough that a user would wonder.
class Progress {
public:
    explicit Progress(std::size_t total) : total_(total) {}
    void starting(std::size_t index, const std::string& name) {
        const auto now = clock_type::now();
        if (index != current_) {
            current_ = index;
            calls_ = 0;
            std::fprintf(stderr, "iobench: [%zu/%zu] %s\n", index + 1, total_, name.c_str());
        } else if (now - last_start_ > std::chrono::seconds(5)) {
            std::fprintf(stderr, "iobench: [%zu/%zu] %s, run %zu\n", index + 1, total_, name.c_str(), calls_ + 1);
        }
        std::fflush(stderr);
        ++calls_;
        last_start_ = now;
    }

private:
    std::size_t total_;
    std::size_t current_ = static_cast<std::size_t>(-1);
    std::size_t calls_ = 0;
    clock_type::time_point last_start_{};
};

std::set<std::string> failed_names;

/// Ends the benchmark with an error (Google Benchmark then reports no time).
void fail(benchmark::State& state, const Case& c, const std::string& message) {
    state.SkipWithError(message.c_str());
    failed_names.insert(c.name);
}

/// Ends the benchmark as skipped: the method cannot run here, for a reason
/// found at run time (`unavailable_error`). Reported as an error row whose
/// message starts with "skipped: " (Google Benchmark 1.7 has no skip without
/// an error); it does not count as a failure.
void skip(benchmark::State& state, const std::string& reason) {
    state.SkipWithError(("skipped: " + reason).c_str());
}

void run_case(benchmark::State& state, const Case& c, Session& session) {
    std::unique_ptr<Trial> trial;
    try {
        trial = c.workload->make_trial(*c.method, c.params, session);
    } catch (const unavailable_error& e) {
        skip(state, e.what());
        return;
    } catch (const std::exception& e) {
        fail(state, c, fmt::format("preparing the input failed: {}", e.what()));
        return;
    }
    for (auto _ : state) {
        state.PauseTiming();
        try {
            trial->reset();
        } catch (const unavailable_error& e) {
            skip(state, e.what());
            break;
        } catch (const std::exception& e) {
            fail(state, c, fmt::format("preparing the run failed: {}", e.what()));
            break;
        }
        state.ResumeTiming();

        const auto start = clock_type::now();
        try {
            trial->run();
        } catch (const unavailable_error& e) {
            skip(state, e.what());
            break;
        } catch (const std::exception& e) {
            fail(state, c, e.what());
            break;
        }
        const auto stop = clock_type::now();
        const std::optional<double> own = trial->measured_seconds();
        state.SetIterationTime(own ? *own : std::chrono::duration<double>(stop - start).count());

        state.PauseTiming();
        const std::string mismatch = trial->verify();
        if (!mismatch.empty()) {
            fail(state, c, fmt::format("verification failed: {}", mismatch));
            break;
        }
        state.ResumeTiming();
    }
    trial->finish();
    if (state.error_occurred()) return;
    state.SetBytesProcessed(static_cast<std::int64_t>(trial->bytes) * state.iterations());
    state.SetItemsProcessed(static_cast<std::int64_t>(trial->items) * state.iterations());
    state.counters["verified"] = 1;
    // Absent when unknown: a constant 0 would make Google Benchmark's cv
    // aggregate 0/0 = NaN, which is not valid JSON.
    if (trial->buffer_size != 0) state.counters["buffer_size"] = static_cast<double>(trial->buffer_size);
    for (const auto& [name, value] : trial->counters)
        if (value != 0) state.counters[name] = value;
}

}  // namespace

int failed_benchmarks() { return static_cast<int>(failed_names.size()); }

void register_benchmarks(const std::vector<Case>& cases, Session& session) {
    auto progress = std::make_shared<Progress>(cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Case* c = &cases[i];
        benchmark::RegisterBenchmark(c->name.c_str(),
                                     [c, i, progress, &session](benchmark::State& state) {
                                         progress->starting(i, c->name);
                                         run_case(state, *c, session);
                                     })
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
    }
}

}  // namespace iobench
