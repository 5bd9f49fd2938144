// The part every output workload shares: a sink file per trial, removed before
// each run, and verification of the file against a generated expected stream.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "core/session.hpp"
#include "core/workload.hpp"
#include "data/checksum.hpp"
#include "workloads/reference_trial.hpp"

namespace iobench {

/// Trial whose run writes one file, checked afterwards by size and checksum
/// against `expected` (computed once per session under `expected_key`).
class OutputTrial : public Trial {
public:
    /// Output goes to `<dir>/output-<workload>-<method>`.
    OutputTrial(Session& session, std::string_view workload, const Method& method, const Params& params,
                const std::string& expected_key, Generator expected);

    void reset() override;
    std::string verify() override;
    void finish() override;

protected:
    Sink sink_;

private:
    Generator generate_;
    Digest expected_;
};

/// An OutputTrial whose run is `write(sink)`: a lambda that calls the
/// method's operation once with the workload's arguments (one indirect call
/// per run, none per item).
template <class Write>
class CallOutputTrial final : public OutputTrial {
public:
    CallOutputTrial(Session& session, std::string_view workload, const Method& method, const Params& params,
                    const std::string& expected_key, Generator expected, std::uint64_t items_per_run, Write write)
        : OutputTrial(session, workload, method, params, expected_key, std::move(expected)), write_(std::move(write)) {
        items = items_per_run;
    }
    void run() override { write_(sink_); }

private:
    Write write_;
};

/// The trial of the output workload `workload` for `method`: the `limit`
/// reference row (make_output_reference_trial) when `method` is one, else a
/// run that calls `write(sink)`, e.g.
/// `[put = PutInts(m.put_ints), count](const Sink& sink) { put(sink, count); }`.
/// Either is verified against `expected` (cached under `expected_key`);
/// `items` per run as the workload counts them.
template <class Write>
std::unique_ptr<Trial> make_output_trial(Session& session, std::string_view workload, const Method& method,
                                         const Params& params, const std::string& expected_key, Generator expected,
                                         std::uint64_t items, Write write) {
    if (is_output_reference(method))
        return make_output_reference_trial(session, workload, method, params, expected_key, std::move(expected), items);
    return std::make_unique<CallOutputTrial<Write>>(session, workload, method, params, expected_key,
                                                    std::move(expected), items, std::move(write));
}

}  // namespace iobench
