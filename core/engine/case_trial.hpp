// The trial of one case: the workload's own, a program method's, or the
// `limit` row's. Above both the workloads and the reference trials
// (core/engine/reference_trial.hpp), which depend on the workload's declaration.
#pragma once

#include <memory>

#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"

namespace iobench {

/// The trial for `method` on `workload` with `params` at the session's scale
/// and directory: the `limit` row's (make_reference_trial, from the
/// workload's expected_output() or input_file()) for a reference method that
/// lacks the workload's operation, the workload's make_program_trial() for a
/// program method, otherwise its make_method_trial(). Generates shared inputs
/// through `session` the first time they are needed. Throws
/// std::invalid_argument for a method the workload does not take
/// (Workload::takes) or a buffer size it has no axis for.
std::unique_ptr<Trial> trial_for(const Workload& workload, const Method& method, const Params& params,
                                 Session& session);

}  // namespace iobench
