#include "core/suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>
#include <utility>

namespace iobench {

// Defined in the file CMake generates from suites/*.json.
extern const std::vector<std::pair<std::string_view, std::string_view>> builtin_suite_texts;

namespace {

void add_case(Suite& suite, const Workload& w, const Method& m, const Params& p) {
    std::string name = case_name(w, m, p);
    if (!m.unavailable.empty()) {
        suite.skipped.push_back({std::move(name), m.unavailable});
        return;
    }
    for (const Case& c : suite.cases)
        if (c.name == name) return;  // listed twice: run once
    suite.cases.push_back({&w, &m, p, std::move(name)});
}

}  // namespace

std::string case_name(const Workload& workload, const Method& method, const Params& params) {
    std::string name = fmt::format("{}/{}", workload.name(), method.name);
    if (params.buffer_size != 0) name += fmt::format("/buf:{}", params.buffer_size);
    if (workload.has_cache_state()) name += fmt::format("/cache:{}", to_string(params.cache));
    return name;
}

std::string_view to_string(CacheState state) { return state == CacheState::cold ? "cold" : "warm"; }

Suite all_pairs() {
    Suite suite{"all", "every workload with every method that supports it", {}, {}, {}, {}, {}, {}};
    for (const auto& w : workloads())
        for (const Method& m : methods())
            if (w->supports(m)) {
                add_case(suite, *w, m, {});
                if (w->has_cache_state()) add_case(suite, *w, m, Params{0, CacheState::cold});
            }
    return suite;
}

std::vector<std::string> builtin_suites() {
    std::vector<std::string> names;
    for (const auto& [name, text] : builtin_suite_texts) names.emplace_back(name);
    return names;
}

Suite parse_suite(const std::string& text, const std::string& origin) {
    using nlohmann::json;
    auto fail = [&](const std::string& what) { return suite_error(fmt::format("suite {}: {}", origin, what)); };
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        throw fail(fmt::format("not valid JSON ({})", e.what()));
    }
    try {
        if (!doc.is_object()) throw fail("expected a JSON object");
        Suite suite;
        suite.name = doc.value("name", origin);
        suite.description = doc.value("description", "");
        if (doc.contains("repetitions")) {
            int r = doc.at("repetitions").get<int>();
            if (r < 1) throw fail("\"repetitions\" must be at least 1");
            suite.repetitions = r;
        }
        if (doc.contains("min_time")) {
            double t = doc.at("min_time").get<double>();
            if (!(t > 0)) throw fail("\"min_time\" must be a positive number of seconds");
            suite.min_time = t;
        }
        if (doc.contains("scale")) {
            double s = doc.at("scale").get<double>();
            if (!(s > 0)) throw fail("\"scale\" must be positive");
            suite.scale = s;
        }
        if (doc.contains("stdout_target")) {
            const std::string t = doc.at("stdout_target").get<std::string>();
            suite.stdout_target = parse_stdout_target(t);
            if (!suite.stdout_target)
                throw fail(fmt::format("\"stdout_target\" must be \"devnull\", \"file\" or \"pipe\", not \"{}\"", t));
        }
        static const std::vector<std::string_view> keys = {"name",  "description", "repetitions",  "min_time",
                                                            "scale", "benchmarks",  "stdout_target"};
        for (const auto& item : doc.items())
            if (std::find(keys.begin(), keys.end(), item.key()) == keys.end())
                throw fail(fmt::format("unknown key \"{}\"", item.key()));

        const json& list = doc.at("benchmarks");
        if (!list.is_array() || list.empty()) throw fail("\"benchmarks\" must be a non-empty array");
        for (const json& entry : list) {
            if (!entry.is_object()) throw fail("each entry of \"benchmarks\" must be an object");
            for (const auto& item : entry.items())
                if (item.key() != "workload" && item.key() != "methods" && item.key() != "buffer_sizes" &&
                    item.key() != "cache")
                    throw fail(fmt::format("unknown key \"{}\" in a benchmarks entry", item.key()));
            const std::string wname = entry.at("workload").get<std::string>();
            const Workload* w = find_workload(wname);
            if (!w) throw fail(fmt::format("unknown workload \"{}\"", wname));
            std::vector<const Method*> ms;
            const json& jm = entry.at("methods");
            if (jm.is_string() && jm.get<std::string>() == "*") {
                for (const Method& m : methods())
                    if (w->supports(m)) ms.push_back(&m);
            } else {
                for (const json& n : jm) {
                    const std::string mname = n.get<std::string>();
                    const Method* m = find_method(mname);
                    if (!m) throw fail(fmt::format("unknown method \"{}\"", mname));
                    if (!w->supports(*m))
                        throw fail(fmt::format("method \"{}\" cannot run workload \"{}\"", mname, wname));
                    ms.push_back(m);
                }
            }
            std::vector<std::size_t> sizes = {0};
            if (entry.contains("buffer_sizes")) {
                sizes = entry.at("buffer_sizes").get<std::vector<std::size_t>>();
                for (std::size_t s : sizes)
                    if (s == 0) throw fail("buffer sizes must be at least 1 byte");
            }
            std::vector<CacheState> caches = {CacheState::warm};
            if (entry.contains("cache")) {
                if (!w->has_cache_state())
                    throw fail(fmt::format("workload \"{}\" has no page-cache state to set", wname));
                caches.clear();
                for (const std::string& c : entry.at("cache").get<std::vector<std::string>>()) {
                    if (c != "warm" && c != "cold")
                        throw fail(fmt::format("\"cache\" values must be \"warm\" or \"cold\", not \"{}\"", c));
                    caches.push_back(c == "cold" ? CacheState::cold : CacheState::warm);
                }
                if (caches.empty()) throw fail("\"cache\" must list \"warm\", \"cold\" or both");
            }
            for (const Method* m : ms) {
                for (std::size_t size : sizes) {
                    if (size != 0 && !m->sizable_buffer)
                        throw fail(fmt::format("method \"{}\" has no buffer size to set", m->name));
                    for (CacheState cache : caches) add_case(suite, *w, *m, Params{size, cache});
                }
            }
        }
        return suite;
    } catch (const json::exception& e) {
        throw fail(e.what());
    }
}

Suite load_suite(const std::string& name_or_path) {
    for (const auto& [name, text] : builtin_suite_texts)
        if (name == name_or_path) return parse_suite(std::string(text), std::string(name));
    if (name_or_path.size() > 5 && name_or_path.ends_with(".json")) {
        std::ifstream in(name_or_path, std::ios::binary);
        if (!in) throw suite_error(fmt::format("suite {}: cannot open the file", name_or_path));
        std::ostringstream text;
        text << in.rdbuf();
        return parse_suite(text.str(), name_or_path);
    }
    std::string known;
    for (const std::string& n : builtin_suites()) known += (known.empty() ? "" : ", ") + n;
    throw suite_error(fmt::format("unknown suite \"{}\" (built in: {}; or a path to a .json file)", name_or_path, known));
}

}  // namespace iobench
