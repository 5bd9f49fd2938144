// The part of a workload the runner computes from its declaration
// (WorkloadSpec): which methods it takes and its count. Which trial a method
// gets is core/engine/case_trial.cpp's choice.
#include "core/engine/workload.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "core/engine/session.hpp"

namespace iobench {

bool Workload::has_operation(const Method& method) const {
    if (spec_.calls_only) return false;
    if (!method.program.file.empty() && !spec_.program_methods) return false;
    return operation_field(spec_.operation).present(method) && (!spec_.method_filter || spec_.method_filter(method));
}

bool Workload::takes(const Method& method) const {
    if (has_operation(method)) return true;
    if (!method.reference) return false;
    switch (spec_.reference) {
    case ReferenceKind::output: return method.put_prepared.present() || method.copy_prepared.present();
    case ReferenceKind::input: return method.read_bytes.present();
    case ReferenceKind::none: break;
    }
    return false;
}

namespace {

/// The call of `calls` that writes `item`, as its presence and why-not-built.
struct ItemCall {
    bool present = false;
    std::string_view why_not_built;
};

ItemCall item_call(const Calls& calls, CallItem item) {
    switch (item) {
    case CallItem::put_int: return {calls.put_int.present(), calls.put_int.why_not_built()};
    case CallItem::put_line: return {calls.put_line.present(), calls.put_line.why_not_built()};
    case CallItem::put_record: return {calls.put_record.present(), calls.put_record.why_not_built()};
    case CallItem::put_fields: return {calls.put_fields.present(), calls.put_fields.why_not_built()};
    case CallItem::none: break;
    }
    return {};
}

}  // namespace

bool Workload::takes_calls(const Method& method) const {
    return spec_.call_item != CallItem::none && calls_of(method).open.present() && calls_of(method).close.present() &&
           item_call(calls_of(method), spec_.call_item).present;
}

std::string Workload::calls_unavailable(const Method& method) const {
    if (!method.unavailable.empty()) return method.unavailable;
    for (std::string_view why : {calls_of(method).open.why_not_built(), calls_of(method).close.why_not_built(),
                                 item_call(calls_of(method), spec_.call_item).why_not_built})
        if (!why.empty()) return std::string(why);
    return "";
}

std::unique_ptr<Trial> Workload::make_call_trial(const Method& method, const Params&, Session&) const {
    throw std::logic_error(fmt::format("workload {} has no per-call rows ({})", name(), method.name));
}

std::string Workload::unavailable(const Method& method) const {
    if (!method.unavailable.empty()) return method.unavailable;
    const Operation output = method.copy_prepared.present() ? Operation::copy_prepared : Operation::put_prepared;
    const Operation called = has_operation(method)                       ? spec_.operation
                             : spec_.reference == ReferenceKind::output ? output
                                                                        : Operation::read_bytes;
    std::string why(operation_field(called).why_not_built(method));
    if (why.empty() && spec_.method_unavailable) why = spec_.method_unavailable(method);
    return why;
}

std::uint64_t Workload::count(const Session& session) const {
    if (spec_.sized_input && session.input_size() != 0) return session.input_size();
    return session.scaled(spec_.default_count);
}

std::unique_ptr<Trial> Workload::make_program_trial(const Method& method, const Params&, Session&) const {
    throw std::logic_error(fmt::format("workload {} declares program_methods but makes no program trial ({})", name(),
                                       method.name));
}

ExpectedOutput Workload::expected_output(Session&) const {
    throw std::logic_error(fmt::format("workload {} declares no output reference", name()));
}

InputFile Workload::input_file(Session&) const {
    throw std::logic_error(fmt::format("workload {} declares no input reference", name()));
}

std::uint64_t sized_input_bytes(const Session& session) {
    for (const auto& w : workloads())
        if (w->spec().sized_input) return w->count(session);
    return 0;
}

}  // namespace iobench
