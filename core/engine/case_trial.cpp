#include "core/engine/case_trial.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "core/engine/reference_trial.hpp"

namespace iobench {

std::unique_ptr<Trial> trial_for(const Workload& workload, const Method& method, const Params& params,
                                 Session& session) {
    if (!workload.takes(method))
        throw std::invalid_argument(fmt::format("workload {} does not take method {}", workload.name(), method.name));
    if (params.buffer_size != 0 && !workload.spec().axes.buffer_size)
        throw std::invalid_argument(
            fmt::format("workload {} has no buffer size to set: no /buf", workload.name()));
    if (!workload.has_operation(method)) return make_reference_trial(workload, method, params, session);
    if (!method.program.file.empty()) return workload.make_program_trial(method, params, session);
    return workload.make_method_trial(method, params, session);
}

}  // namespace iobench
