#include "core/report/run_context.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "core/engine/workload.hpp"
#include "core/measure/latency.hpp"
#include "core/os/environment.hpp"
#include "core/os/instructions.hpp"
#include "core/os/memory_use.hpp"
#include "core/os/os_counters.hpp"
#include "core/os/syscall_counts.hpp"
#include "core/report/report.hpp"

namespace iobench {

std::map<std::string, std::string> run_context(const RunFacts& run, const Session& session,
                                               const std::filesystem::path& dir,
                                               std::optional<PageCost>& page_cost) {
    std::map<std::string, std::string> context;
    for (const auto& [key, value] : describe_environment(dir)) context.emplace(key, value);
    context["suite"] = run.suite;
    context["scale"] = fmt::format("{}", run.scale);
    context["stdout_target"] = std::string(to_string(session.stdout_target()));
    context["file_size"] = std::to_string(sized_input_bytes(session));
    context["skipped"] = skipped_context(run.skipped);
    context["interleaved"] = run.interleave ? "true" : "false";
    context["counters"] = available_os_counters();  // the OS counters the rows can carry here
    context["syscall_counter"] = syscall_counter_description();
    if (!run.pinned.empty()) context["cpus"] = run.pinned;
    // A new file's pages against overwritten ones (some 0.3 s), where an
    // output table has a limit row whose time they may be most of.
    const bool output_limit = std::any_of(run.cases.begin(), run.cases.end(), [](const Case& c) {
        return c.method->reference && c.workload->spec().reference == ReferenceKind::output;
    });
    if (output_limit && !run.instructions) {
        // 1 GiB at full scale (hello writes 1.2 GB), down to 64 MiB for a quick run.
        constexpr double mib = 1 << 20;
        page_cost = measure_page_cost(
            dir, static_cast<std::uint64_t>(std::clamp(1024 * mib * run.scale, 64 * mib, 1024 * mib)));
    }
    context["page_cache_pages"] = describe_page_supply(page_supply_facts(), page_cost,
                                                       run.instructions ? "an instructions run"
                                                       : !output_limit  ? "no output table with a limit row in this run"
                                                                        : "not measurable here");
    if (!run.programs.empty()) context["programs"] = run.programs;
    if (run.stopping_rule) context["stopping_rule"] = describe(*run.stopping_rule, run.repetitions);
    if (std::any_of(run.cases.begin(), run.cases.end(), [](const Case& c) { return c.params.threads > 0; })) {
        context["latency_clock"] = describe_call_clock();
        context["memory_counters"] = describe_memory_counters();
    }
    if (run.instructions) {
        context["instructions_source"] = std::string(to_string(instruction_counter().source()));
        if (!run.valgrind.empty()) context["valgrind"] = run.valgrind;
    }
    return context;
}

}  // namespace iobench
