// The trial every output workload shares: a sink file per trial, removed (and
// the file system settled) before each run, and verification of the file
// against a generated expected stream. The `limit` row's output trial
// (core/engine/reference_trial.cpp) is one too.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"
#include "data/checksum.hpp"

namespace iobench {

/// Trial whose run writes one file, checked afterwards by size and checksum
/// against the expected bytes (their digest computed once per session under
/// their key).
class OutputTrial : public Trial {
public:
    /// Output goes to `<dir>/output-<workload>-<method>`; `items` per run
    /// come from `expected`.
    OutputTrial(Session& session, std::string_view workload, const Method& method, const Params& params,
                const ExpectedOutput& expected);

    void reset() override;
    std::string verify() override;
    void finish() override;

protected:
    /// Size and checksum of the bytes a run must produce.
    const Digest& expected_digest() const { return expected_; }
    /// The reset of a run that takes no new page-cache page (limit_overwrite,
    /// which writes over a file its reset wrote; memcpy, which writes no
    /// file): the output removed and its file system synced, as reset() does,
    /// without warming the page supply for the output's bytes (a 1.2 GB write
    /// for hello, 0.4-0.8 s a repetition, that such a run would not use).
    void settle_without_warming();

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
                    const ExpectedOutput& expected, Write write)
        : OutputTrial(session, workload, method, params, expected), write_(std::move(write)) {}
    void run() override { write_(sink_); }

private:
    Write write_;
};

/// The trial of the output workload `workload` for `method`: a run calls
/// `write(sink)`, e.g.
/// `[put = PutInts(m.put_ints), count](const Sink& sink) { put(sink, count); }`,
/// and is verified against `expected`.
template <class Write>
std::unique_ptr<Trial> make_output_trial(Session& session, std::string_view workload, const Method& method,
                                         const Params& params, const ExpectedOutput& expected, Write write) {
    return std::make_unique<CallOutputTrial<Write>>(session, workload, method, params, expected, std::move(write));
}

}  // namespace iobench
