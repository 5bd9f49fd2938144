#include "core/engine/case_trial.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include <iobench/error.hpp>
#include "core/engine/call_trial.hpp"
#include "core/engine/reference_trial.hpp"

namespace iobench {

std::unique_ptr<Trial> trial_for(const Workload& workload, const Method& method, const Params& params,
                                 Session& session) {
    if (params.threads > 0) {
        if (!workload.takes_calls(method))
            throw std::invalid_argument(
                fmt::format("workload {} has no per-call rows for method {}", workload.name(), method.name));
        if (const std::string problem = call_case_problem(method, params); !problem.empty())
            throw std::invalid_argument(problem);
        // Calls not built here (POSIX-only write on Windows) have no function to call.
        if (const std::string why = workload.calls_unavailable(method); !why.empty()) throw unavailable_error(why);
        return workload.make_call_trial(method, params, session);
    }
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
