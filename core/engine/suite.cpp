#include "core/engine/suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string_view>
#include <unordered_set>
#include <vector>
#include <utility>

#include "core/engine/call_trial.hpp"
#include "core/os/usage_error.hpp"

#ifndef _WIN32
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace iobench {

// Defined in the file CMake generates from suites/*.json.
extern const std::vector<std::pair<std::string_view, std::string_view>> builtin_suite_texts;

namespace {

/// Adds the case of `w` x `m` with `p` to `suite` (or to its skipped pairs);
/// a case listed twice runs once. `taken`: the names of `suite.cases`, so
/// that a suite of 200,000 entries is read in linear time.
void add_case(Suite& suite, std::unordered_set<std::string>& taken, const Workload& w, const Method& m,
              const Params& p) {
    std::string name = case_name(w, m, p);
    std::string why = p.threads > 0 ? w.calls_unavailable(m) : w.unavailable(m);
    if (why.empty() && p.threads > 0) why = call_case_problem(m, p);
    if (!why.empty()) {
        if (!taken.insert(name).second) return;  // listed twice (threads:1 of both sinks): said once
        suite.skipped.push_back({std::move(name), std::move(why)});
        return;
    }
    if (!taken.insert(name).second) return;  // listed twice: run once
    suite.cases.push_back({&w, &m, p, std::move(name)});
}

/// The name of the case of the method named `method` on `workload` with `params` (case_name).
std::string case_name_of(const Workload& workload, std::string_view method, const Params& params) {
    std::string name = fmt::format("{}/{}", workload.name(), method);
    if (params.buffer_size != 0) name += fmt::format("/buf:{}", params.buffer_size);
    if (workload.spec().axes.cache_state) name += fmt::format("/cache:{}", to_string(params.cache));
    if (params.threads > 0) name += fmt::format("/threads:{}", params.threads);
    if (params.threads > 1) name += params.shared_sink ? "/sink:shared" : "/sink:per_thread";
    if (params.threads > 0) name += pacing_suffix(params);
    return name;
}

}  // namespace

std::string case_name(const Workload& workload, const Method& method, const Params& params) {
    return case_name_of(workload, method.name, params);
}

std::string pacing_suffix(const Params& params) {
    std::string suffix;
    if (params.rate > 0) suffix += fmt::format("/rate:{}", params.rate);
    if (params.rate > 0 && params.burst > 1 && params.batch <= 1) suffix += fmt::format("/burst:{}", params.burst);
    if (params.batch > 1) suffix += fmt::format("/batch:{}", params.batch);
    return suffix;
}

std::string_view to_string(CacheState state) { return state == CacheState::cold ? "cold" : "warm"; }

Suite all_pairs() {
    Suite suite{"all", "every workload with every method that supports it", {}, {}, {}, {}, {}, {}, {}, {}};
    std::unordered_set<std::string> taken;
    for (const auto& w : workloads())
        for (const Method& m : methods())
            if (w->takes(m)) {
                add_case(suite, taken, *w, m, {});
                if (w->spec().axes.cache_state) add_case(suite, taken, *w, m, Params{0, CacheState::cold});
            }
    // The per-call rows: one thread each.
    for (const auto& w : workloads())
        for (const Method& m : methods())
            if (w->takes_calls(m)) add_case(suite, taken, *w, m, Params{.threads = 1});
    return suite;
}

std::vector<std::string> builtin_suites() {
    std::vector<std::string> names;
    for (const auto& [name, text] : builtin_suite_texts) names.emplace_back(name);
    return names;
}

namespace {

using nlohmann::json;

/// Reads the parts of one suite document, naming the suite (`origin`) and
/// the key in every error it throws (suite_error).
class SuiteReader {
public:
    SuiteReader(std::string origin, const AbsentPlugins& absent) : origin_(std::move(origin)), absent_(absent) {}

    /// The error "suite <origin>: <what>".
    suite_error fail(const std::string& what) const { return suite_error(fmt::format("suite {}: {}", origin_, what)); }

    /// `value` when its type is `type`; else the error names `key`:
    /// "\"min_time\" must be a number, not \"fast\"".
    const json& typed(const json& value, const std::string& key, json::value_t type, const char* what) const {
        const bool ok = type == json::value_t::number_float     ? value.is_number()
                        : type == json::value_t::number_integer ? value.is_number_integer()
                                                                : value.type() == type;
        if (!ok) throw fail(fmt::format("\"{}\" must be {}, not {}", key, what, value.dump()));
        return value;
    }

    /// The suite's own keys (name, description, repetitions, min_time, scale,
    /// stdout_target, min_repetitions, target_interval, budget_seconds and plugins) into `suite`; an
    /// unknown key is an error.
    void read_settings(const json& doc, Suite& suite) {
        suite.name = origin_;
        if (doc.contains("name")) suite.name = typed(doc.at("name"), "name", json::value_t::string, "a string");
        if (doc.contains("description"))
            suite.description = typed(doc.at("description"), "description", json::value_t::string, "a string");
        if (doc.contains("repetitions")) {
            const json& r = doc.at("repetitions");
            if (!r.is_number_integer() || r.get<std::int64_t>() < 1 || r.get<std::int64_t>() > max_suite_repetitions)
                throw fail(fmt::format("\"repetitions\" must be a whole number from 1 to {}, not {}",
                                       max_suite_repetitions, r.dump()));
            suite.repetitions = r.get<int>();
        }
        if (doc.contains("min_time")) {
            const double t = typed(doc.at("min_time"), "min_time", json::value_t::number_float, "a number").get<double>();
            if (!(t > 0) || t > max_suite_min_time)
                throw fail(fmt::format("\"min_time\" must be a positive number of seconds, at most {}", max_suite_min_time));
            suite.min_time = t;
        }
        if (doc.contains("scale")) {
            const double s = typed(doc.at("scale"), "scale", json::value_t::number_float, "a number").get<double>();
            if (!(s > 0)) throw fail("\"scale\" must be positive");
            suite.scale = s;
        }
        if (doc.contains("stdout_target")) {
            const std::string t =
                typed(doc.at("stdout_target"), "stdout_target", json::value_t::string, "a string").get<std::string>();
            suite.stdout_target = parse_stdout_target(t);
            if (!suite.stdout_target)
                throw fail(fmt::format("\"stdout_target\" must be \"devnull\", \"file\" or \"pipe\", not \"{}\"", t));
        }
        read_stopping_rule(doc, suite);
        read_plugins(doc, suite);
        static const std::vector<std::string_view> keys = {
            "name",          "description",     "repetitions",     "min_time", "scale", "benchmarks",
            "stdout_target", "min_repetitions", "target_interval", "budget_seconds", "plugins"};
        for (const auto& item : doc.items())
            if (std::find(keys.begin(), keys.end(), item.key()) == keys.end())
                throw fail(fmt::format("unknown key \"{}\"", item.key()));
    }

    /// Entry `index` of "benchmarks": its cases (every method x buffer size x
    /// cache state it names) added to `suite`.
    void read_entry(const json& entry, std::size_t index, Suite& suite) const {
        const std::string at = fmt::format("benchmarks[{}]", index);
        if (!entry.is_object()) throw fail("each entry of \"benchmarks\" must be an object");
        for (const auto& item : entry.items())
            if (item.key() != "workload" && item.key() != "methods" && item.key() != "buffer_sizes" &&
                item.key() != "cache" && item.key() != "threads" && item.key() != "sink" && item.key() != "rate" &&
                item.key() != "burst" && item.key() != "batch")
                throw fail(fmt::format("unknown key \"{}\" in a benchmarks entry", item.key()));
        const auto key = [&](const char* k) { return fmt::format("{}.{}", at, k); };
        if (!entry.contains("workload")) throw fail(fmt::format("\"{}\" is missing", key("workload")));
        if (!entry.contains("methods")) throw fail(fmt::format("\"{}\" is missing", key("methods")));
        const std::string wname =
            typed(entry.at("workload"), key("workload"), json::value_t::string, "a string").get<std::string>();
        const Workload* w = find_workload(wname);
        if (!w) throw fail(fmt::format("unknown workload \"{}\"", wname));
        EntryAxes axes = read_call_axes(entry, at, *w);
        std::vector<std::string> absent;  // methods of the suite's plugins that are not loaded
        const std::vector<const Method*> ms = read_methods(entry.at("methods"), key("methods"), *w, axes.calls, absent);
        read_run_axes(entry, at, *w, axes);
        for (const Method* m : ms) {
            if (axes.calls && m->reference) {
                for (CacheState cache : axes.caches) add_case(suite, taken_, *w, *m, Params{0, cache});
                continue;
            }
            for (std::size_t size : axes.sizes) {
                if (size != 0 && !m->sizable_buffer)
                    throw fail(fmt::format("method \"{}\" has no buffer size to set", m->name));
                add_grid(suite, *w, *m, size, axes);
            }
        }
        add_absent(suite, *w, absent, axes);
        add_user_methods(suite, *w, ms, axes);
    }

private:
    /// The axes of one benchmarks entry: what each of its methods is crossed with.
    struct EntryAxes {
        std::vector<unsigned> threads = {0};     // 0: a whole run; else a per-call row's threads
        std::vector<bool> sinks = {false};       // a per-call row's sink shared by its threads
        std::vector<Params> pacings;             // rate x burst x batch of the per-call rows
        std::vector<std::size_t> sizes = {0};    // buffer sizes (0: the method's default)
        std::vector<CacheState> caches = {CacheState::warm};
        bool calls = false;                      // per-call rows (threads named, or a log workload)
    };

    /// "threads", "sink", "rate", "burst" and "batch" of entry `at` of
    /// workload `w`: the per-call rows (a log workload has no others) and how
    /// they pace and time their calls.
    EntryAxes read_call_axes(const json& entry, const std::string& at, const Workload& w) const {
        const auto key = [&](const char* k) { return fmt::format("{}.{}", at, k); };
        EntryAxes axes;
        if (entry.contains("threads")) axes.threads = read_threads(entry.at("threads"), key("threads"), w);
        else if (w.spec().calls_only) axes.threads = {1};
        if (entry.contains("sink")) {
            if (!entry.contains("threads")) throw fail(fmt::format("\"{}\" needs \"threads\"", key("sink")));
            axes.sinks = read_sinks(entry.at("sink"), key("sink"));
        }
        std::vector<std::uint64_t> rates = {0}, bursts = {1}, batches = {1};
        for (const char* k : {"rate", "batch"})
            if (entry.contains(k) && !entry.contains("threads"))
                throw fail(fmt::format("\"{}\" needs \"threads\"", key(k)));
        if (entry.contains("burst") && !entry.contains("rate"))
            throw fail(fmt::format("\"{}\" needs \"rate\"", key("burst")));
        if (entry.contains("rate"))
            rates = read_whole_numbers(entry.at("rate"), key("rate"), 0, max_rate, "calls per second per thread (0: as fast as it can)");
        if (entry.contains("burst")) bursts = read_whole_numbers(entry.at("burst"), key("burst"), 1, max_batch, "calls per burst");
        if (entry.contains("batch")) batches = read_whole_numbers(entry.at("batch"), key("batch"), 1, max_batch, "calls per batch");
        for (std::uint64_t rate : rates)
            for (std::uint64_t burst : bursts)
                for (std::uint64_t batch : batches)
                    axes.pacings.push_back(Params{.rate = rate,
                                                  // (a paced batch is due as one burst)
                                                  .burst = rate > 0 && batch <= 1 ? static_cast<unsigned>(burst) : 0,
                                                  .batch = static_cast<unsigned>(batch)});
        axes.calls = axes.threads.front() != 0;
        return axes;
    }

    /// "buffer_sizes" and "cache" of entry `at` of workload `w` into `axes`;
    /// an error where the workload has no such axis.
    void read_run_axes(const json& entry, const std::string& at, const Workload& w, EntryAxes& axes) const {
        const auto key = [&](const char* k) { return fmt::format("{}.{}", at, k); };
        if (entry.contains("buffer_sizes")) {
            if (!w.spec().axes.buffer_size) throw fail(fmt::format("workload \"{}\" has no buffer size to set", w.name()));
            axes.sizes = read_buffer_sizes(entry.at("buffer_sizes"), key("buffer_sizes"));
        }
        if (entry.contains("cache")) {
            if (!w.spec().axes.cache_state) throw fail(fmt::format("workload \"{}\" has no page-cache state to set", w.name()));
            axes.caches = read_caches(entry.at("cache"), key("cache"));
        }
    }

    /// Adds method `m`'s cases of workload `w` at buffer size `size`: each
    /// cache state x threads x sink x pacing of `axes` (a whole run has no
    /// sink or pacing).
    void add_grid(Suite& suite, const Workload& w, const Method& m, std::size_t size, const EntryAxes& axes) const {
        for (CacheState cache : axes.caches)
            for (unsigned n : axes.threads)
                for (bool shared : axes.sinks)
                    for (const Params& pacing : axes.pacings)
                        add_case(suite, taken_, w, m, grid_params(size, cache, n, shared, pacing));
    }

    /// The Params of one point of an entry's grid: a whole run (n = 0) has
    /// no sink or pacing.
    static Params grid_params(std::size_t size, CacheState cache, unsigned n, bool shared, const Params& pacing) {
        Params p{size, cache, n, n > 0 && shared && n > 1};
        if (n > 0) {
            p.rate = pacing.rate;
            p.burst = pacing.burst;
            p.batch = pacing.batch;
        }
        return p;
    }

    /// A method of a plugin of the suite that is not loaded (`absent`): its
    /// cases are listed as skipped, with the reason (each threads x sink x
    /// pacing of `axes`, as add_grid would add them).
    void add_absent(Suite& suite, const Workload& w, const std::vector<std::string>& absent,
                    const EntryAxes& axes) const {
        for (const std::string& name : absent)
            for (unsigned n : axes.threads)
                for (bool shared : axes.sinks)
                    for (const Params& pacing : axes.pacings) {
                        std::string skipped_name =
                            case_name_of(w, name, grid_params(0, axes.caches.front(), n, shared, pacing));
                        if (taken_.insert(skipped_name).second)
                            suite.skipped.push_back({std::move(skipped_name), absence_of(name)});
                    }
    }

    /// A user's methods (a plugin's, or built in with iobench_add_executable)
    /// join every workload the suite names, beside the methods it lists
    /// (`listed`), at their default buffer size; unless the entry names
    /// methods of that family itself: then those only. A method with only
    /// the per-call shape joins an entry of whole runs with its one-thread
    /// per-call row, so that every suite (quick, which a regression gate
    /// runs, among them) measures it.
    void add_user_methods(Suite& suite, const Workload& w, const std::vector<const Method*>& listed,
                          const EntryAxes& axes) const {
        std::vector<std::string> named_families;
        for (const Method* m : listed) named_families.push_back(m->family);
        for (const Method& m : methods()) {
            if (!is_added_family(m.family) ||
                std::find(named_families.begin(), named_families.end(), m.family) != named_families.end() ||
                plugin_of(m.name))  // (the suite's own plugins: it names their methods where it wants them)
                continue;
            if (axes.calls ? w.takes_calls(m) : w.takes(m)) {
                add_grid(suite, w, m, 0, axes);
            } else if (!axes.calls && w.takes_calls(m)) {
                for (CacheState cache : axes.caches) add_case(suite, taken_, w, m, Params{0, cache, 1, false});
            }
        }
    }

    /// "plugins": an array of {"file": "<name>", "methods": ["<method>", ...]},
    /// a file name of letters, digits and "_.+-" (a name, never a path).
    void read_plugins(const json& doc, Suite& suite) {
        if (!doc.contains("plugins")) return;
        for (const json& p : typed(doc.at("plugins"), "plugins", json::value_t::array, "an array")) {
            if (!p.is_object() || !p.contains("file") || !p.contains("methods"))
                throw fail("each entry of \"plugins\" must be an object with \"file\" and \"methods\"");
            for (const auto& item : p.items())
                if (item.key() != "file" && item.key() != "methods")
                    throw fail(fmt::format("unknown key \"{}\" in a plugins entry", item.key()));
            SuitePlugin plugin;
            plugin.file = typed(p.at("file"), "plugins.file", json::value_t::string, "a string").get<std::string>();
            if (!valid_name(plugin.file))
                throw fail(fmt::format("\"plugins.file\" must be a file's name (letters, digits and _ . + -), not "
                                       "\"{}\"",
                                       plugin.file));
            for (const json& m : typed(p.at("methods"), "plugins.methods", json::value_t::array, "an array"))
                plugin.methods.push_back(
                    typed(m, "plugins.methods", json::value_t::string, "an array of strings").get<std::string>());
            suite.plugins.push_back(std::move(plugin));
        }
        plugins_ = suite.plugins;
    }

    /// The suite's plugin that registers the method `name`, or nullptr.
    const SuitePlugin* plugin_of(const std::string& name) const {
        for (const SuitePlugin& p : plugins_)
            if (std::find(p.methods.begin(), p.methods.end(), name) != p.methods.end()) return &p;
        return nullptr;
    }

    /// Why the method `name` of a plugin of the suite is not registered:
    /// the reason its plugin was not loaded.
    std::string absence_of(const std::string& name) const {
        const SuitePlugin* p = plugin_of(name);
        if (!p) return "";
        for (const auto& [file, why] : absent_)
            if (file == p->file) return why;
        return fmt::format("its plugin {} is not loaded", p->file);
    }

    /// "min_repetitions" and "target_interval", both or neither, with
    /// "repetitions" (read before), and "budget_seconds" with them or not at
    /// all: the suite's stopping rule.
    void read_stopping_rule(const json& doc, Suite& suite) const {
        const bool min_given = doc.contains("min_repetitions"), target_given = doc.contains("target_interval");
        if (!min_given && !target_given) {
            if (doc.contains("budget_seconds"))
                throw fail("\"budget_seconds\" needs the stopping rule's \"min_repetitions\" and \"target_interval\": "
                           "the fewest repetitions a benchmark runs whatever its budget");
            return;
        }
        if (!min_given || !target_given)
            throw fail("\"min_repetitions\" and \"target_interval\" go together (the stopping rule): give both or "
                       "neither");
        if (!suite.repetitions)
            throw fail("\"min_repetitions\" needs \"repetitions\": the most repetitions a benchmark may run");
        StoppingRule rule;
        const json& m = doc.at("min_repetitions");
        if (!m.is_number_integer() || m.get<std::int64_t>() < min_samples_for_median_interval ||
            m.get<std::int64_t>() > *suite.repetitions)
            throw fail(fmt::format("\"min_repetitions\" must be a whole number from {} (the fewest repetitions with "
                                   "a 95 % interval of the median) to \"repetitions\" ({}), not {}",
                                   min_samples_for_median_interval, *suite.repetitions, m.dump()));
        rule.min_repetitions = m.get<int>();
        const double t =
            typed(doc.at("target_interval"), "target_interval", json::value_t::number_float, "a number").get<double>();
        if (!(t > 0 && t < 1))
            throw fail(fmt::format("\"target_interval\" must be a fraction of the median above 0 and below 1 "
                                   "(0.02 = ±2 %), not {}",
                                   doc.at("target_interval").dump()));
        rule.target_interval = t;
        if (doc.contains("budget_seconds")) {
            const double b =
                typed(doc.at("budget_seconds"), "budget_seconds", json::value_t::number_float, "a number").get<double>();
            if (!(b > 0) || b > max_suite_budget_seconds)
                throw fail(fmt::format("\"budget_seconds\" must be a number of seconds above 0 and at most {:g}, not {}",
                                       max_suite_budget_seconds, doc.at("budget_seconds").dump()));
            rule.budget_seconds = b;
        }
        suite.stopping_rule = rule;
    }

    /// "threads": a non-empty array of thread counts, 1 to max_threads, for
    /// a workload with per-call rows.
    std::vector<unsigned> read_threads(const json& value, const std::string& key, const Workload& w) const {
        if (w.spec().call_item == CallItem::none)
            throw fail(fmt::format("workload \"{}\" has no per-call rows: no \"threads\"", w.name()));
        std::vector<unsigned> out;
        for (const json& n : typed(value, key, json::value_t::array, "an array of thread counts")) {
            if (!n.is_number_integer() || n.get<std::int64_t>() < 1 || n.get<std::int64_t>() > max_threads)
                throw fail(fmt::format("\"{}\" must hold whole numbers of threads from 1 to {}, not {}", key,
                                       max_threads, n.dump()));
            out.push_back(n.get<unsigned>());
        }
        if (out.empty()) throw fail(fmt::format("\"{}\" must list at least one thread count", key));
        return out;
    }

    /// "rate", "burst", "batch": a non-empty array of whole numbers from
    /// `least` to `most` (`what` names their unit in the error).
    std::vector<std::uint64_t> read_whole_numbers(const json& value, const std::string& key, std::uint64_t least,
                                                  std::uint64_t most, const char* what) const {
        std::vector<std::uint64_t> out;
        for (const json& n : typed(value, key, json::value_t::array, "an array of whole numbers")) {
            if (!n.is_number_integer() || n.get<std::int64_t>() < static_cast<std::int64_t>(least) ||
                n.get<std::uint64_t>() > most)
                throw fail(fmt::format("\"{}\" must hold whole numbers from {} to {} ({}), not {}", key, least, most,
                                       what, n.dump()));
            out.push_back(n.get<std::uint64_t>());
        }
        if (out.empty()) throw fail(fmt::format("\"{}\" must list at least one value", key));
        return out;
    }

    /// "sink": a non-empty array of "shared" and "per_thread" (true: shared).
    std::vector<bool> read_sinks(const json& value, const std::string& key) const {
        std::vector<bool> out;
        for (const json& item : typed(value, key, json::value_t::array, "an array")) {
            const std::string c = typed(item, key, json::value_t::string, "an array of strings");
            if (c != "shared" && c != "per_thread")
                throw fail(fmt::format("\"{}\" values must be \"shared\" or \"per_thread\", not \"{}\"", key, c));
            out.push_back(c == "shared");
        }
        if (out.empty()) throw fail(fmt::format("\"{}\" must list \"shared\", \"per_thread\" or both", key));
        return out;
    }

    /// "methods": "*" (every method `w` takes; with `calls`, every method
    /// with its per-call rows) or an array of names. A name of a method of
    /// the suite's plugins whose plugin is not loaded goes to `absent`.
    std::vector<const Method*> read_methods(const json& jm, const std::string& key, const Workload& w, bool calls,
                                            std::vector<std::string>& absent) const {
        // (The `limit` reference has no calls: beside per-call rows it is
        // the workload's whole-run reference row.)
        auto takes = [&](const Method& m) { return calls ? w.takes_calls(m) || (m.reference && w.takes(m)) : w.takes(m); };
        if (!(jm.is_string() && jm.get<std::string>() == "*") && !jm.is_array())
            throw fail(fmt::format("\"{}\" must be \"*\" or an array of method names, not {}", key, jm.dump()));
        std::vector<const Method*> ms;
        if (jm.is_string()) {
            for (const Method& m : methods())
                if (takes(m)) ms.push_back(&m);
            return ms;
        }
        for (const json& n : jm) {
            const std::string mname = typed(n, key, json::value_t::string, "an array of strings").get<std::string>();
            const Method* m = find_method(mname);
            if (!m && plugin_of(mname)) {
                absent.push_back(mname);
                continue;
            }
            if (!m) throw fail(fmt::format("unknown method \"{}\"", mname));
            if (!takes(*m))
                throw fail(calls ? fmt::format("method \"{}\" has no per-call shape for workload \"{}\" (its calls "
                                               "lack what \"threads\" needs)",
                                               mname, w.name())
                                 : fmt::format("method \"{}\" cannot run workload \"{}\"", mname, w.name()));
            ms.push_back(m);
        }
        // (An empty list selected nothing, which was reported as a
        // --benchmark_filter that matches nothing, also without one.)
        if (ms.empty() && absent.empty())
            throw fail(fmt::format("\"{}\" names no method (give \"*\" for all of them)", key));
        return ms;
    }

    /// "buffer_sizes": whole numbers of bytes, 1 to 2^40.
    std::vector<std::size_t> read_buffer_sizes(const json& value, const std::string& key) const {
        const json& js = typed(value, key, json::value_t::array, "an array of sizes in bytes");
        std::vector<std::size_t> sizes;
        for (const json& n : js) {
            if (!n.is_number_integer() || n.get<std::int64_t>() < 0 || n.get<std::uint64_t>() > (1ull << 40))
                throw fail(fmt::format("\"{}\" must hold whole numbers of bytes up to 2^40, not {}", key, n.dump()));
            sizes.push_back(n.get<std::size_t>());
        }
        for (std::size_t s : sizes)
            if (s == 0) throw fail("buffer sizes must be at least 1 byte");
        return sizes;
    }

    /// "cache": a non-empty array of "warm" and "cold".
    std::vector<CacheState> read_caches(const json& value, const std::string& key) const {
        std::vector<CacheState> caches;
        for (const json& item : typed(value, key, json::value_t::array, "an array")) {
            const std::string c = typed(item, key, json::value_t::string, "an array of strings");
            if (c != "warm" && c != "cold")
                throw fail(fmt::format("\"cache\" values must be \"warm\" or \"cold\", not \"{}\"", c));
            caches.push_back(c == "cold" ? CacheState::cold : CacheState::warm);
        }
        if (caches.empty()) throw fail("\"cache\" must list \"warm\", \"cold\" or both");
        return caches;
    }

    std::string origin_;
    const AbsentPlugins& absent_;
    std::vector<SuitePlugin> plugins_;  ///< "plugins" (read before the entries)
    mutable std::unordered_set<std::string> taken_;  // names of the cases added so far (add_case)
};

/// What a file of type `type` is, for a message ("a FIFO").
std::string file_kind(std::filesystem::file_type type) {
    switch (type) {
        case std::filesystem::file_type::directory: return "a directory";
        case std::filesystem::file_type::character: return "a character device";
        case std::filesystem::file_type::block: return "a block device";
        case std::filesystem::file_type::fifo: return "a FIFO";
        case std::filesystem::file_type::socket: return "a socket";
        default: return "not a regular file";
    }
}

suite_error not_readable(const std::string& path, const std::string& what) {
    return suite_error(fmt::format("suite {}: {}", path, what));
}

#ifndef _WIN32
std::filesystem::file_type type_of(mode_t mode) {
    using std::filesystem::file_type;
    if (S_ISDIR(mode)) return file_type::directory;
    if (S_ISCHR(mode)) return file_type::character;
    if (S_ISBLK(mode)) return file_type::block;
    if (S_ISFIFO(mode)) return file_type::fifo;
    if (S_ISSOCK(mode)) return file_type::socket;
    return file_type::unknown;
}
#endif

/// The bytes of the suite file `path`: a regular file (or a link to one) of
/// at most max_suite_file_bytes. A FIFO, device or socket is refused before
/// anything is read (on POSIX it is opened with O_NONBLOCK, so that opening
/// it cannot block, and checked with fstat).
std::string read_suite_file(const std::string& path) {
    const std::string too_large =
        fmt::format("larger than {} bytes: not a suite file (suites are small)", max_suite_file_bytes);
    std::string text;
#ifdef _WIN32
    std::error_code ec;
    const std::filesystem::file_status st = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
        throw not_readable(path, fmt::format("is {}, not a suite file (only regular files are read)", file_kind(st.type())));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw not_readable(path, "cannot open the file");
    text.resize(max_suite_file_bytes + 1);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad()) throw not_readable(path, "cannot read the file");
    text.resize(static_cast<std::size_t>(in.gcount()));
#else
    const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) throw not_readable(path, "cannot open the file");
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        throw not_readable(path, fmt::format("is {}, not a suite file (only regular files are read)",
                                             file_kind(type_of(st.st_mode))));
    }
    if (static_cast<std::uintmax_t>(st.st_size) > max_suite_file_bytes) {
        close(fd);
        throw not_readable(path, too_large);
    }
    text.resize(max_suite_file_bytes + 1);  // (a file that grows meanwhile is cut here, and refused)
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = read(fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            close(fd);
            throw not_readable(path, fmt::format("cannot read the file: {}", std::strerror(err)));
        }
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    close(fd);
    text.resize(got);
#endif
    if (text.size() > max_suite_file_bytes) throw not_readable(path, too_large);
    return text;
}

}  // namespace

Suite parse_suite(const std::string& text, const std::string& origin, const AbsentPlugins& absent) {
    SuiteReader reader(origin, absent);
    json doc;
    // JSON readers differ on what follows a NUL and on a key given twice (the
    // last one wins here, the first elsewhere): both are refused.
    if (const auto nul = text.find('\0'); nul != std::string::npos)
        throw reader.fail(fmt::format("a NUL byte at offset {}: not JSON text", nul));
    std::vector<std::set<std::string>> keys;  // per open object, its keys so far
    const json::parser_callback_t no_duplicates = [&](int, json::parse_event_t event, json& parsed) {
        if (event == json::parse_event_t::object_start) {
            keys.emplace_back();
        } else if (event == json::parse_event_t::object_end) {
            keys.pop_back();
        } else if (event == json::parse_event_t::key && !keys.empty()) {
            const std::string& key = parsed.get_ref<const std::string&>();
            if (!keys.back().insert(key).second)
                throw reader.fail(fmt::format("the key \"{}\" is given twice in one object", key));
        }
        return true;
    };
    try {
        doc = json::parse(text, no_duplicates);
    } catch (const json::parse_error& e) {
        throw reader.fail(fmt::format("not valid JSON ({})", e.what()));
    } catch (const json::exception& e) {
        // out_of_range: a number beyond a double (1e999).
        throw reader.fail(fmt::format("a number is out of range ({})", e.what()));
    }
    try {
        if (!doc.is_object()) throw reader.fail("expected a JSON object");
        Suite suite;
        reader.read_settings(doc, suite);
        if (!doc.contains("benchmarks")) throw reader.fail("\"benchmarks\" is missing");
        const json& list = doc.at("benchmarks");
        if (!list.is_array() || list.empty()) throw reader.fail("\"benchmarks\" must be a non-empty array");
        for (std::size_t index = 0; index < list.size(); ++index) reader.read_entry(list[index], index, suite);
        return suite;
    } catch (const json::exception& e) {
        throw reader.fail(e.what());
    }
}

Suite load_suite(const std::string& name_or_path, const AbsentPlugins& absent) {
    for (const auto& [name, text] : builtin_suite_texts)
        if (name == name_or_path) return parse_suite(std::string(text), std::string(name), absent);
    if (name_or_path.size() > 5 && name_or_path.ends_with(".json"))
        return parse_suite(read_suite_file(name_or_path), name_or_path, absent);
    std::string known;
    for (const std::string& n : builtin_suites()) known += (known.empty() ? "" : ", ") + n;
    throw suite_error(fmt::format("unknown suite \"{}\" (built in: {}; or a path to a .json file)", name_or_path, known));
}

}  // namespace iobench

namespace iobench {

std::vector<SuitePlugin> suite_plugins(const std::string& name_or_path) {
    std::string text, origin = name_or_path;
    for (const auto& [name, builtin] : builtin_suite_texts)
        if (name == name_or_path) text = builtin;
    if (text.empty()) {
        if (!(name_or_path.size() > 5 && name_or_path.ends_with(".json"))) return {};  // load_suite says why
        text = read_suite_file(name_or_path);
    }
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::exception&) {
        return {};  // load_suite says what is wrong, with the rest of the suite
    }
    if (!doc.is_object() || !doc.contains("plugins")) return {};
    Suite suite;
    const AbsentPlugins none;
    SuiteReader(origin, none).read_settings(doc, suite);
    return suite.plugins;
}

}  // namespace iobench
