// The method and workload registries: vectors behind functions, so static
// initializers in any translation unit can register into them.
#include <algorithm>
#include <stdexcept>

#include "core/method.hpp"
#include "core/workload.hpp"

namespace iobench {

namespace {
std::vector<Method>& method_list() {
    static std::vector<Method> list;
    return list;
}
std::vector<std::unique_ptr<Workload>>& workload_list() {
    static std::vector<std::unique_ptr<Workload>> list;
    return list;
}
}  // namespace

void register_method(Method method) {
    auto& list = method_list();
    if (find_method(method.name)) throw std::logic_error("method registered twice: " + method.name);
    // Keep families together (alphabetically), methods in registration order
    // within a family, so listings do not depend on static-initialization order.
    auto pos = std::upper_bound(list.begin(), list.end(), method,
                                [](const Method& a, const Method& b) { return a.family < b.family; });
    list.insert(pos, std::move(method));
}

const std::vector<Method>& methods() { return method_list(); }

const Method* find_method(std::string_view name) {
    for (const Method& m : method_list())
        if (m.name == name) return &m;
    return nullptr;
}

void register_workload(std::unique_ptr<Workload> workload) {
    auto& list = workload_list();
    if (find_workload(workload->name()))
        throw std::logic_error("workload registered twice: " + std::string(workload->name()));
    auto pos = std::upper_bound(list.begin(), list.end(), workload,
                                [](const auto& a, const auto& b) { return a->name() < b->name(); });
    list.insert(pos, std::move(workload));
}

const std::vector<std::unique_ptr<Workload>>& workloads() { return workload_list(); }

const Workload* find_workload(std::string_view name) {
    for (const auto& w : workload_list())
        if (w->name() == name) return w.get();
    return nullptr;
}

namespace {
/// The OperationField of `Member`, called `name`.
template <auto Member>
constexpr OperationField field(std::string_view name) {
    return {name, [](const Method& m) { return (m.*Member).present(); }, [](Method& m) { m.*Member = {}; }};
}
}  // namespace

std::span<const OperationField> operation_fields() {
    static constexpr OperationField fields[] = {
        field<&Method::put_ints>("put_ints"),
        field<&Method::put_repeat>("put_repeat"),
        field<&Method::get_ints>("get_ints"),
        field<&Method::put_lines>("put_lines"),
        field<&Method::put_doubles>("put_doubles"),
        field<&Method::put_prepared>("put_prepared"),
        field<&Method::put_console>("put_console"),
        field<&Method::print_console>("print_console"),
        field<&Method::read_bytes>("read_bytes"),
        field<&Method::get_doubles>("get_doubles"),
        field<&Method::transcode>("transcode"),
        field<&Method::put_ints_locale>("put_ints_locale"),
        field<&Method::get_ints_locale>("get_ints_locale"),
    };
    return fields;
}

std::vector<std::string_view> operation_names(const Method& m) {
    std::vector<std::string_view> names;
    for (const OperationField& op : operation_fields())
        if (op.present(m)) names.push_back(op.name);
    return names;
}

MethodRegistrar::MethodRegistrar(const FamilyDefaults& defaults, std::initializer_list<Method> list) {
    for (Method m : list) {
        if (!m.family.empty() && m.family != defaults.family)
            throw std::logic_error("method " + m.name + " names family " + m.family + " in family " + defaults.family);
        m.family = defaults.family;
        if (m.unavailable.empty()) m.unavailable = defaults.unavailable;
        register_method(std::move(m));
    }
}

}  // namespace iobench
