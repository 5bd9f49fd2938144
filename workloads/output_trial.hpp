// The part every output workload shares: a sink file per trial, removed before
// each run, and verification of the file against a generated expected stream.
#pragma once

#include <string>

#include "core/session.hpp"
#include "core/workload.hpp"
#include "data/checksum.hpp"

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

}  // namespace iobench
