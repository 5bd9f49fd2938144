// The plugin side of a run-time plugin (iobench/plugin.hpp, docs/plugins.md):
// compiled by iobench_add_plugin() into every plugin, never into iobench.
// While the library loads, the method files' registrars keep their families
// here; iobench then reads the plugin's build identity and, only when it
// equals its own, the families (both through the two C entry points below).
#ifndef IOBENCH_PLUGIN
#error "core/plugins/plugin_entry.cpp is part of a plugin only: build it with iobench_add_plugin()"
#endif

#include <exception>
#include <new>

#include <iobench/method.hpp>
#include <iobench/detail_identity.hpp>
#include <iobench/workload.hpp>

namespace iobench::plugin {
namespace {

/// The families this plugin's registrars kept, in the order they ran.
std::vector<Family>& kept_families() {
    static std::vector<Family> families;
    return families;
}

/// The workloads this plugin's LinesRegistrars kept, in the order they ran.
std::vector<LinesWorkload>& kept_workloads() {
    static std::vector<LinesWorkload> workloads;
    return workloads;
}

}  // namespace

Lines::Lines(const LinesWorkload& workload) noexcept {
    // Runs inside dlopen/LoadLibraryW, as Registrar does: nothing may escape.
    // iobench checks what is kept (a name, a line function, a count).
    try {
        kept_workloads().push_back(workload);
    } catch (...) {
        // Not kept: iobench sees fewer workloads than the plugin has.
    }
}

Registrar::Registrar(const FamilyDefaults& defaults, std::initializer_list<Method> list) noexcept {
    // Runs inside dlopen/LoadLibraryW: an exception here would end the
    // process. What goes wrong is kept with the family, for iobench to say.
    try {
        Family kept{defaults.family, defaults.unavailable, {}, {}};
        try {
            kept.methods.assign(list.begin(), list.end());
        } catch (const std::exception& e) {
            kept.methods.clear();
            kept.error = std::string("its methods could not be kept: ") + e.what();
        }
        kept_families().push_back(std::move(kept));
    } catch (...) {
        // Not even the error could be kept: iobench sees fewer families than
        // the plugin has, and says when it sees none.
    }
}

}  // namespace iobench::plugin

extern "C" {

/// The plugin's build identity (iobench/plugin.hpp): plain C, read before
/// anything else of the plugin.
IOBENCH_PLUGIN_EXPORT const iobench_build_identity* iobench_plugin_identity() {
    static const iobench_build_identity identity = iobench::build_identity();
    return &identity;
}

/// The families the plugin's registrars kept; iobench copies them (never
/// moves: the plugin's heap may not be iobench's) once the identities match.
IOBENCH_PLUGIN_EXPORT const std::vector<iobench::plugin::Family>* iobench_plugin_families() {
    return &iobench::plugin::kept_families();
}

/// The workloads the plugin's LinesRegistrars kept (iobench/workload.hpp);
/// read, and copied, like the families.
IOBENCH_PLUGIN_EXPORT const std::vector<iobench::LinesWorkload>* iobench_plugin_workloads() {
    return &iobench::plugin::kept_workloads();
}

}  // extern "C"
