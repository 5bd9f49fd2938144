// The method and workload registries: vectors behind functions, so static
// initializers in any translation unit can register into them.
#include <algorithm>
#include <stdexcept>

#include <iobench/method.hpp>
#include "core/engine/workload.hpp"

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
constexpr OperationField field(std::string_view name, std::string_view summary) {
    return {name, summary, [](const Method& m) { return (m.*Member).present(); },
            [](const Method& m) { return (m.*Member).why_not_built(); }, [](Method& m) { m.*Member = {}; }};
}
}  // namespace

std::span<const OperationField> operation_fields() {
#define IOBENCH_OPERATION_FIELD(type, member, summary) field<&Method::member>(#member, summary),
    static constexpr OperationField fields[] = {IOBENCH_OPERATIONS(IOBENCH_OPERATION_FIELD)};
#undef IOBENCH_OPERATION_FIELD
    return fields;
}

const OperationField& operation_field(Operation op) { return operation_fields()[static_cast<std::size_t>(op)]; }

std::vector<std::string_view> operation_names(const Method& m) {
    std::vector<std::string_view> names;
    for (const OperationField& op : operation_fields())
        if (op.present(m)) names.push_back(op.name);
    return names;
}

namespace {
std::vector<std::string>& added_family_list() {
    static std::vector<std::string> list;
    return list;
}
}  // namespace

bool is_added_family(std::string_view family) {
    const auto& list = added_family_list();
    return std::find(list.begin(), list.end(), family) != list.end();
}

bool valid_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
               c == '+' || c == '-';
    });
}

void register_family(const FamilyDefaults& defaults, std::span<const Method> list, FamilyOrigin origin) {
    if (!valid_name(defaults.family))
        throw std::logic_error("family \"" + defaults.family +
                               "\": a family's name is letters, digits and _ . + - only, not empty");
    std::vector<Method> family;
    family.reserve(list.size());
    for (const Method& entry : list) {
        Method m = entry;
        if (!m.family.empty() && m.family != defaults.family)
            throw std::logic_error("method " + m.name + " names family " + m.family + " in family " + defaults.family);
        m.family = defaults.family;
        if (m.unavailable.empty()) m.unavailable = defaults.unavailable;
        if (!valid_name(m.name))
            throw std::logic_error("method \"" + m.name + "\" of family " + m.family +
                                   ": a method's name is letters, digits and _ . + - only, not empty");
        if (operation_names(m).empty() && !calls_of(m).open.present())
            throw std::logic_error("method " + m.name + " of family " + m.family +
                                   " has no operation (and no per-call shape)");
        if (calls_of(m).open.present() != calls_of(m).close.present())
            throw std::logic_error("method " + m.name + " of family " + m.family +
                                   ": its per-call shape needs both open and close");
        if (const Method* taken = find_method(m.name))
            throw std::logic_error("method " + m.name + " of family " + m.family + " is registered already (family " +
                                   taken->family + ")");
        for (const Method& earlier : family)
            if (earlier.name == m.name)
                throw std::logic_error("method " + m.name + " appears twice in family " + m.family);
        family.push_back(std::move(m));
    }
    for (Method& m : family) register_method(std::move(m));
    if (origin == FamilyOrigin::added && !is_added_family(defaults.family))
        added_family_list().push_back(defaults.family);
}

namespace {
std::vector<std::string>& registration_error_list() {
    static std::vector<std::string> list;
    return list;
}
}  // namespace

const std::vector<std::string>& registration_errors() { return registration_error_list(); }

namespace {
/// Registers a family from a static initializer. Thrown from there, an error
/// would end the program before main() could say anything: it is kept for
/// main() to report instead.
void register_at_start_up(const FamilyDefaults& defaults, std::initializer_list<Method> list, FamilyOrigin origin) {
    try {
        register_family(defaults, std::span<const Method>(list.begin(), list.size()), origin);
    } catch (const std::exception& e) {
        registration_error_list().push_back(e.what());
    }
}
}  // namespace

registrars::Own::Own(const FamilyDefaults& defaults, std::initializer_list<Method> list) {
    register_at_start_up(defaults, list, FamilyOrigin::own);
}

namespace {
std::vector<FamilyBuild>& family_build_list() {
    static std::vector<FamilyBuild> list;
    return list;
}
std::string& build_flags_text() {
    static std::string text;
    return text;
}
}  // namespace

const std::vector<FamilyBuild>& added_family_builds() { return family_build_list(); }

const std::string& added_build_flags() { return build_flags_text(); }

void set_added_build_flags(const char* flags) {
    // One blank between flags: CMake's variables may be empty or end in one.
    std::vector<std::string_view> words;
    for (std::string_view rest = flags ? flags : ""; !rest.empty();) {
        const std::size_t start = rest.find_first_not_of(" \t\n");
        if (start == std::string_view::npos) break;
        rest.remove_prefix(start);
        const std::size_t end = std::min(rest.find_first_of(" \t\n"), rest.size());
        words.push_back(rest.substr(0, end));
        rest.remove_prefix(end);
    }
    // A definition or an optimisation level once, where the compiler last
    // sees it: a -D repeated (the build type's -DNDEBUG and the package's)
    // is the same one, and of several levels (-O3 of the build type, -O2 of
    // iobench's package) GCC and Clang use the last. Other words stay as
    // they are (a repeated -include or -Xclang takes the word after it).
    const auto optimisation = [](std::string_view w) { return w.size() >= 2 && w.substr(0, 2) == "-O"; };
    const auto definition = [](std::string_view w) { return w.size() > 2 && w.substr(0, 2) == "-D"; };
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const auto later = std::find_if(words.begin() + static_cast<std::ptrdiff_t>(i) + 1, words.end(),
                                        [&](std::string_view w) {
                                            return (definition(w) && w == words[i]) ||
                                                   (optimisation(w) && optimisation(words[i]));
                                        });
        if (later != words.end()) continue;
        if (!text.empty()) text += ' ';
        text.append(words[i]);
    }
    build_flags_text() = std::move(text);
}

registrars::Added::Added(const FamilyDefaults& defaults, std::initializer_list<Method> list, const char* compiler,
                         const char* standard_library, const char* build_type) {
    const std::size_t errors = registration_error_list().size();
    register_at_start_up(defaults, list, FamilyOrigin::added);
    if (registration_error_list().size() == errors)
        family_build_list().push_back({defaults.family, compiler, standard_library, build_type});
}

registrars::Lines::Lines(const LinesWorkload& workload) {
    try {
        register_workload(make_lines_workload(workload));
    } catch (const std::exception& e) {
        registration_error_list().push_back(e.what());
    }
}

}  // namespace iobench
