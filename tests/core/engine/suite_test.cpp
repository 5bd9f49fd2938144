// Suite files: what they select, and the errors bad ones get.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <iobench/method.hpp>
#include "app/options.hpp"
#include "core/engine/case_trial.hpp"
#include "core/engine/session.hpp"
#include "core/engine/suite.hpp"
#include "core/engine/workload.hpp"
#include "generated/binsize_programs.hpp"
#include "test_dir.hpp"

namespace iobench {
namespace {

std::string error_of(const std::string& text) {
    try {
        parse_suite(text, "t.json");
    } catch (const suite_error& e) {
        return e.what();
    }
    return "";
}

TEST(Suite, FilterSelectsNamesAsGoogleBenchmarkDoes) {
    const std::vector<Skipped> items = {{"ints_out/obuf", ""}, {"ints_out/fprintf", ""}, {"hello/obuf", ""}};
    auto names = [](const std::vector<Skipped>& v) {
        std::vector<std::string> out;
        for (const Skipped& s : v) out.push_back(s.name);
        return out;
    };
    EXPECT_EQ(names(filter_cases(items, "")).size(), 3u);
    EXPECT_EQ(names(filter_cases(items, "all")).size(), 3u);
    EXPECT_EQ(names(filter_cases(items, "/obuf$")), (std::vector<std::string>{"ints_out/obuf", "hello/obuf"}));
    EXPECT_EQ(names(filter_cases(items, "-/obuf$")), (std::vector<std::string>{"ints_out/fprintf"}));
    EXPECT_EQ(names(filter_cases(items, "^ints_out/(fprintf|obuf)$")),
              (std::vector<std::string>{"ints_out/obuf", "ints_out/fprintf"}));
    EXPECT_TRUE(filter_cases(items, "nothing").empty());
    try {
        filter_cases(items, "(");
        ADD_FAILURE() << "an unbalanced parenthesis is no regular expression";
    } catch (const usage_error& e) {
        EXPECT_NE(std::string(e.what()).find("--benchmark_filter=(: not a valid regular expression"), std::string::npos)
            << e.what();
    }
}

// std::regex backtracks exponentially on a repeated group that
// repeats inside ("((((((a*)*)*)*)*)*)c$" took 33 s): such filters are
// refused before any name is matched; every other use of groups, brackets
// and escapes still works.
TEST(Suite, FilterWithANestedRepetitionIsRefused) {
    const std::vector<Skipped> items = {{"ints_out/obuf", ""}, {"hello/fwrite", ""}};
    for (const char* nested : {"(a*)*", "((((((a*)*)*)*)*)*)c$", "(x+y)+", "((a*)b){2,}", "((a)*)+", "-(o+)*"}) {
        try {
            filter_cases(items, nested);
            ADD_FAILURE() << nested << " was accepted";
        } catch (const usage_error& e) {
            EXPECT_NE(std::string(e.what()).find("can take exponential time"), std::string::npos) << e.what();
        }
    }
    for (const char* fine : {"^(ints_out|hello)/(obuf|fwrite)$", "o+b*", "(ob)*uf", "(o*b)?uf", "(a*){2}",
                             "[(*]+", "\\(o*\\)*", "[]a*]+o", "/(ob+)uf$"})
        EXPECT_NO_THROW(filter_cases(items, fine)) << fine;
    EXPECT_EQ(filter_cases(items, "/(ob+)uf$").size(), 1u);
    EXPECT_THROW(filter_cases(items, std::string(1025, 'a')), usage_error);
}

// A suite of 200,000 buffer sizes took more than 20 s to read
// (each case was compared with every earlier one); every case is there.
TEST(Suite, AHugeSuiteIsReadWhole) {
    std::string sizes;
    for (int i = 1; i <= 200000; ++i) sizes += (i == 1 ? "" : ",") + std::to_string(i);
    const Suite suite = parse_suite(
        R"({"benchmarks": [{"workload": "hello", "methods": ["fwrite"], "buffer_sizes": [)" + sizes + "]}]}", "huge");
    ASSERT_EQ(suite.cases.size(), 200000u);
    EXPECT_EQ(suite.cases.back().name, "hello/fwrite/buf:200000");
}

TEST(Operations, TheListTheRegistryAndTheWorkloadsAgree) {
    // The operations come from one list (IOBENCH_OPERATIONS): every entry has
    // a distinct name, toggles its own slot of Method and no other, is
    // implemented by some registered method and taken by some workload.
    const auto fields = operation_fields();
    ASSERT_GE(fields.size(), 13u);
    std::set<std::string_view> names;
    for (const OperationField& op : fields) {
        EXPECT_TRUE(names.insert(op.name).second) << op.name << " listed twice";
        EXPECT_FALSE(op.summary.empty()) << op.name;
        const Method* with = nullptr;
        for (const Method& m : methods())
            if (op.present(m)) with = &m;
        ASSERT_NE(with, nullptr) << "no method implements " << op.name;
        Method only = *with;
        for (const OperationField& other : fields)
            if (other.name != op.name) other.clear(only);
        EXPECT_EQ(operation_names(only), std::vector<std::string_view>{op.name}) << op.name;
        bool taken = false;
        for (const auto& w : workloads()) taken = taken || w->takes(only);
        EXPECT_TRUE(taken) << "no workload takes " << op.name;
        op.clear(only);
        EXPECT_TRUE(operation_names(only).empty()) << op.name;
    }
    for (const Method& m : methods())
        EXPECT_TRUE(!operation_names(m).empty() || calls_of(m).open.present()) << m.name << " has no operation";
}

TEST(Suite, BuiltInDefaultHasTheSeedTablePairsInOrder) {
    const Suite s = load_suite("default");
    std::vector<std::string> names;
    for (const Case& c : s.cases) names.push_back(c.name);
    // The unbuffered baseline: write(2) on POSIX, WriteFile on Windows; the
    // other one is listed as skipped.
#ifdef _WIN32
    const std::string unbuffered = "WriteFile", other = "write";
#else
    const std::string unbuffered = "write", other = "WriteFile";
#endif
    const std::vector<std::string> expected = {
        "ints_out/fprintf", "ints_out/ofstream", "ints_out/" + unbuffered, "ints_out/obuf",
        "ints_out/limit",   "ints_out/limit_overwrite", "ints_out/memcpy", "ints_in/fscanf", "ints_in/ifstream",
        "ints_in/ibuf",     "ints_in/limit",     "hello/fwrite",  "hello/ofstream",
        "hello/obuf",       "hello/limit",       "hello/limit_overwrite", "hello/memcpy"};
    EXPECT_EQ(names, expected);
    ASSERT_EQ(s.skipped.size(), 1u);
    EXPECT_EQ(s.skipped[0].name, "ints_out/" + other);
    EXPECT_EQ(s.repetitions, 9);
}

/// The names of the benchmarks the suite file `doc` describes (a case, or
/// a pair skipped on this build): each entry's workload with each method it
/// names (every method the workload takes for "*"), buffer size and cache
/// state, threads and sink, named as case_name does. Computed here from the
/// JSON alone.
std::set<std::string> names_described(const nlohmann::json& doc) {
    std::set<std::string> names;
    for (const nlohmann::json& entry : doc.at("benchmarks")) {
        const Workload* w = find_workload(entry.at("workload").get<std::string>());
        EXPECT_NE(w, nullptr) << entry.dump();
        if (!w) continue;
        // Per-call rows: "threads" (a calls-only workload has no others) and "sink".
        std::vector<std::string> calls = {""};
        if (entry.contains("threads") || w->spec().calls_only) {
            calls.clear();
            const std::vector<unsigned> threads =
                entry.contains("threads") ? entry.at("threads").get<std::vector<unsigned>>() : std::vector<unsigned>{1};
            const std::vector<std::string> sinks =
                entry.contains("sink") ? entry.at("sink").get<std::vector<std::string>>() : std::vector<std::string>{"per_thread"};
            // "rate", "burst" and "batch": the pacing of each per-call row (a paced batch is one burst).
            const auto numbers = [&](const char* key) {
                return entry.contains(key) ? entry.at(key).get<std::vector<std::uint64_t>>()
                                           : std::vector<std::uint64_t>{key == std::string("rate") ? 0u : 1u};
            };
            std::vector<std::string> pacings;
            for (std::uint64_t rate : numbers("rate"))
                for (std::uint64_t burst : numbers("burst"))
                    for (std::uint64_t batch : numbers("batch"))
                        pacings.push_back((rate > 0 ? fmt::format("/rate:{}", rate) : "") +
                                          (rate > 0 && burst > 1 && batch <= 1 ? fmt::format("/burst:{}", burst) : "") +
                                          (batch > 1 ? fmt::format("/batch:{}", batch) : ""));
            for (unsigned n : threads)
                for (const std::string& sink : sinks)
                    for (const std::string& pacing : pacings)
                        calls.push_back((n == 1 ? "/threads:1" : fmt::format("/threads:{}/sink:{}", n, sink)) + pacing);
        }
        const bool per_call = calls.front() != "";
        auto takes = [&](const Method& m) { return per_call ? w->takes_calls(m) || (m.reference && w->takes(m)) : w->takes(m); };
        std::vector<std::string> ms;
        if (entry.at("methods").is_string()) {
            for (const Method& m : methods())
                if (takes(m)) ms.push_back(m.name);
        } else {
            ms = entry.at("methods").get<std::vector<std::string>>();
        }
        std::vector<std::string> sizes = {""};
        if (entry.contains("buffer_sizes")) {
            sizes.clear();
            for (std::size_t size : entry.at("buffer_sizes").get<std::vector<std::size_t>>())
                sizes.push_back(fmt::format("/buf:{}", size));
        }
        std::vector<std::string> caches = {""};
        if (w->spec().axes.cache_state)
            caches = entry.contains("cache") ? entry.at("cache").get<std::vector<std::string>>()
                                             : std::vector<std::string>{"warm"};
        for (const std::string& m : ms)
            for (const std::string& size : sizes)
                for (const std::string& cache : caches)
                    for (const std::string& call : calls)
                        names.insert(fmt::format("{}/{}{}{}{}", w->name(), m, size, cache.empty() ? "" : "/cache:" + cache,
                                                 find_method(m) && find_method(m)->reference ? "" : call));
    }
    return names;
}

/// The names without extension of the files of `dir` whose extension is
/// `extension` (".json"), sorted.
std::vector<std::string> stems_in(const std::filesystem::path& dir, const std::string& extension) {
    std::vector<std::string> stems;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == extension) stems.push_back(entry.path().stem().string());
    std::sort(stems.begin(), stems.end());
    return stems;
}

TEST(Suite, EverySuiteFileIsBuiltIn) {
    // The build embeds the suites its list names (cmake/IobenchGenerated.cmake,
    // IOBENCH_SUITES: no GLOB); a file added to suites/ and not to the list fails here.
    std::vector<std::string> names = builtin_suites();
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, stems_in(IOBENCH_SUITES_DIR, ".json"));
}

TEST(Suite, EveryBinarySizeProgramIsListed) {
    // binsize/CMakeLists.txt builds the programs its IOBENCH_BINSIZE_METHODS
    // names (no GLOB), and the binary_size workload knows them from the header
    // it generates; a binsize/<method>.cpp left out of the list fails here.
    std::vector<std::string> listed;
    for (const binsize::Program& p : binsize::programs) listed.emplace_back(p.method);
    std::sort(listed.begin(), listed.end());
    EXPECT_EQ(listed, stems_in(IOBENCH_BINSIZE_SOURCE_DIR, ".cpp"));
}

TEST(Suite, EveryBuiltInSuiteIsWhatItsFileDescribes) {
    const std::vector<std::string> names = builtin_suites();
    EXPECT_GE(names.size(), 14u);  // suites/*.json
    for (const std::string& name : names) {
        SCOPED_TRACE(name);
        std::ifstream in(std::string(IOBENCH_SUITES_DIR "/") + name + ".json");
        ASSERT_TRUE(in) << "no suites/" << name << ".json";
        const nlohmann::json doc = nlohmann::json::parse(in);
        Suite s;
        ASSERT_NO_THROW(s = load_suite(name));
        // The settings as the file gives them.
        EXPECT_EQ(s.name, name);
        EXPECT_EQ(doc.at("name"), name);
        EXPECT_EQ(s.description, doc.at("description").get<std::string>());
        EXPECT_FALSE(s.description.empty());
        const auto given = [&]<class T>(const char* key, T) {
            return doc.contains(key) ? std::optional<T>(doc.at(key).get<T>()) : std::nullopt;
        };
        EXPECT_EQ(s.repetitions, given("repetitions", 0));
        EXPECT_EQ(s.min_time, given("min_time", 0.0));
        EXPECT_EQ(s.scale, given("scale", 0.0));
        const std::optional<std::string> target = given("stdout_target", std::string());
        EXPECT_EQ(s.stdout_target, target ? parse_stdout_target(*target) : std::nullopt);
        if (target) {
            EXPECT_TRUE(s.stdout_target.has_value()) << *target;
        }
        EXPECT_EQ(s.stopping_rule ? std::optional<int>(s.stopping_rule->min_repetitions) : std::nullopt,
                  given("min_repetitions", 0));
        EXPECT_EQ(s.stopping_rule ? std::optional<double>(s.stopping_rule->target_interval) : std::nullopt,
                  given("target_interval", 0.0));
        if (s.stopping_rule) {
            EXPECT_EQ(s.stopping_rule->budget_seconds, given("budget_seconds", 0.0).value_or(0));
        }
        // Every benchmark the file describes, once: a case that can run, or a
        // pair skipped with its reason. (A user's family, FamilyOrigin::added,
        // joins them: none is registered in these tests.)
        std::set<std::string> selected;
        for (const Case& c : s.cases) {
            ASSERT_NE(c.workload, nullptr);
            ASSERT_NE(c.method, nullptr);
            EXPECT_EQ(c.name, case_name(*c.workload, *c.method, c.params));
            if (c.params.threads > 0) {
                EXPECT_TRUE(c.workload->takes_calls(*c.method)) << c.name;
                EXPECT_EQ(c.workload->calls_unavailable(*c.method), "") << c.name;
            } else {
                EXPECT_TRUE(c.workload->takes(*c.method)) << c.name;
                EXPECT_EQ(c.workload->unavailable(*c.method), "") << c.name;
            }
            EXPECT_TRUE(selected.insert(c.name).second) << c.name << " twice";
        }
        // (A method of the suite's own plugins, none loaded here: skipped,
        // saying its plugin is not loaded.)
        std::set<std::string> plugin_methods;
        if (doc.contains("plugins"))
            for (const auto& p : doc.at("plugins"))
                for (const auto& m : p.at("methods")) plugin_methods.insert(m.get<std::string>());
        for (const Skipped& k : s.skipped) {
            EXPECT_NE(k.reason, "") << k.name;
            const std::string method = k.name.substr(k.name.find('/') + 1, k.name.find('/', k.name.find('/') + 1) - k.name.find('/') - 1);
            if (plugin_methods.count(method) != 0) {
                EXPECT_NE(k.reason.find("is not loaded"), std::string::npos) << k.name << ": " << k.reason;
            }
            EXPECT_TRUE(selected.insert(k.name).second) << k.name << " twice";
        }
        EXPECT_FALSE(selected.empty());
        EXPECT_EQ(selected, names_described(doc));
    }
}

TEST(Suite, AMethodOfAnAbsentPluginIsSkippedWithItsPluginsReason) {
    const std::string text = R"({"plugins": [{"file": "iobench_logger_x", "methods": ["x_st", "x_mt"]}],
        "benchmarks": [{"workload": "log", "methods": ["fprintf", "x_mt"], "threads": [1, 4], "sink": ["shared"]},
                       {"workload": "hello", "methods": ["x_st"], "threads": [1]}]})";
    const Suite s = parse_suite(text, "t.json", {{"iobench_logger_x", "not built: no iobench_logger_x.so"}});
    ASSERT_EQ(s.plugins.size(), 1u);
    EXPECT_EQ(s.plugins[0].file, "iobench_logger_x");
    EXPECT_EQ(s.plugins[0].methods, (std::vector<std::string>{"x_st", "x_mt"}));
    std::vector<std::string> run;
    for (const Case& c : s.cases) run.push_back(c.name);
    EXPECT_EQ(run, (std::vector<std::string>{"log/fprintf/threads:1", "log/fprintf/threads:4/sink:shared"}));
    std::vector<std::string> skipped;
    for (const Skipped& k : s.skipped) {
        skipped.push_back(k.name);
        EXPECT_EQ(k.reason, "not built: no iobench_logger_x.so") << k.name;
    }
    EXPECT_EQ(skipped, (std::vector<std::string>{"log/x_mt/threads:1", "log/x_mt/threads:4/sink:shared",
                                                 "hello/x_st/threads:1"}));
    // Without a reason given (the plugin was not looked for): its own.
    const Suite t = parse_suite(text, "t.json");
    ASSERT_EQ(t.skipped.size(), 3u);
    EXPECT_EQ(t.skipped[0].reason, "its plugin iobench_logger_x is not loaded");
    // A method no plugin of the suite names is still an error, and so is a bad entry.
    EXPECT_EQ(error_of(R"({"plugins": [{"file": "p", "methods": ["x_st"]}],
        "benchmarks": [{"workload": "log", "methods": ["y_st"], "threads": [1]}]})"),
              "suite t.json: unknown method \"y_st\"");
    EXPECT_EQ(error_of(R"({"plugins": [{"file": "../p", "methods": []}], "benchmarks": []})"),
              "suite t.json: \"plugins.file\" must be a file's name (letters, digits and _ . + -), not \"../p\"");
    EXPECT_EQ(error_of(R"({"plugins": [{"file": "p"}], "benchmarks": []})"),
              "suite t.json: each entry of \"plugins\" must be an object with \"file\" and \"methods\"");
    EXPECT_EQ(error_of(R"({"plugins": [{"file": "p", "methods": [], "path": "/x"}], "benchmarks": []})"),
              "suite t.json: unknown key \"path\" in a plugins entry");
    // suite_plugins reads the "plugins" alone, before any plugin is loaded.
    const std::vector<SuitePlugin> loggers = suite_plugins("loggers");
    ASSERT_FALSE(loggers.empty());
    EXPECT_EQ(loggers[0].file, "iobench_logger_spdlog");
    EXPECT_TRUE(suite_plugins("quick").empty());
}

TEST(Suite, StarSelectsEveryMethodOfTheWorkload) {
    const Suite s = parse_suite(R"({"benchmarks": [{"workload": "ints_in", "methods": "*"}]})", "t.json");
    std::vector<std::string> names;
    for (const Case& c : s.cases) names.push_back(c.name);
    for (const char* m : {"ints_in/fscanf", "ints_in/ifstream", "ints_in/ibuf"})
        EXPECT_NE(std::find(names.begin(), names.end(), m), names.end()) << m;
    for (const Case& c : s.cases) EXPECT_EQ(c.workload->name(), "ints_in");
}

TEST(Suite, BufferSizesBecomeTheBufParameter) {
    const Suite s = parse_suite(
        R"({"benchmarks": [{"workload": "ints_out", "methods": ["obuf"], "buffer_sizes": [512, 4096]}]})", "t.json");
    ASSERT_EQ(s.cases.size(), 2u);
    EXPECT_EQ(s.cases[0].name, "ints_out/obuf/buf:512");
    EXPECT_EQ(s.cases[1].params.buffer_size, 4096u);
}

TEST(Suite, CacheStatesBecomeTheCacheParameter) {
    // fread, not read(2): the test runs on Windows too.
    const Suite s = parse_suite(
        R"({"benchmarks": [{"workload": "file_read", "methods": ["fread"], "buffer_sizes": [512, 4096],
                            "cache": ["warm", "cold"]}]})",
        "t.json");
    std::vector<std::string> names;
    for (const Case& c : s.cases) names.push_back(c.name);
    const std::vector<std::string> expected = {
        "file_read/fread/buf:512/cache:warm", "file_read/fread/buf:512/cache:cold",
        "file_read/fread/buf:4096/cache:warm", "file_read/fread/buf:4096/cache:cold"};
    EXPECT_EQ(names, expected);
    EXPECT_EQ(s.cases[1].params.cache, CacheState::cold);
    // Without "cache" the state is warm, and still named.
    const Suite warm = parse_suite(R"({"benchmarks": [{"workload": "file_read", "methods": ["fread"]}]})", "t.json");
    ASSERT_EQ(warm.cases.size(), 1u);
    EXPECT_EQ(warm.cases[0].name, "file_read/fread/cache:warm");
    // The suite "all" has both states.
    // (How many methods read files differs by platform: none of the POSIX
    // ones are built on Windows.)
    std::size_t cold = 0, warm_cases = 0;
    for (const Case& c : all_pairs().cases) {
        if (c.workload->name() != "file_read") continue;
        cold += c.params.cache == CacheState::cold;
        warm_cases += c.params.cache == CacheState::warm;
    }
    EXPECT_GT(cold, 3u);
    EXPECT_EQ(cold, warm_cases);
}

TEST(Suite, BadCacheStatesAreRejected) {
    EXPECT_NE(error_of(R"({"benchmarks": [{"workload": "ints_in", "methods": "*", "cache": ["cold"]}]})")
                  .find("workload \"ints_in\" has no page-cache state to set"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"benchmarks": [{"workload": "file_read", "methods": "*", "cache": ["lukewarm"]}]})")
                  .find("\"cache\" values must be \"warm\" or \"cold\", not \"lukewarm\""),
              std::string::npos);
    EXPECT_NE(error_of(R"({"benchmarks": [{"workload": "file_read", "methods": "*", "cache": []}]})")
                  .find("\"cache\" must list"),
              std::string::npos);
}

TEST(Suite, AxesAWorkloadDoesNotDeclareAreRefused) {
    // binary_size's programs keep their library's default buffer: no buffer axis.
    EXPECT_NE(error_of(R"({"benchmarks": [{"workload": "binary_size", "methods": "*", "buffer_sizes": [4096]}]})")
                  .find("workload \"binary_size\" has no buffer size to set"),
              std::string::npos);
}

TEST(Workloads, TheLimitRowIsAddedWhereTheWorkloadDeclaresOne) {
    const Method* limit = find_method("limit");
    ASSERT_NE(limit, nullptr);
    // Output and input workloads declare a reference row; file_read takes
    // the limit's read_bytes as any other method's (its own operation).
    for (const char* name : {"ints_out", "ints_in", "hello", "endl", "lines", "doubles_out", "doubles_in", "file_read"})
        EXPECT_TRUE(find_workload(name)->takes(*limit)) << name;
    for (const char* name : {"ints_out_locale", "ints_in_locale", "console_short", "console_int", "transcode_utf16le",
                             "binary_size"})
        EXPECT_FALSE(find_workload(name)->takes(*limit)) << name;
    EXPECT_EQ(find_workload("ints_out")->spec().reference, ReferenceKind::output);
    EXPECT_EQ(find_workload("ints_in")->spec().reference, ReferenceKind::input);
    // A method is taken for the workload's operation only: put_ints for
    // ints_out, not the get_ints of a reader.
    EXPECT_TRUE(find_workload("ints_out")->takes(*find_method("fprintf")));
    EXPECT_FALSE(find_workload("ints_out")->takes(*find_method("fscanf")));
    EXPECT_TRUE(find_workload("ints_in")->takes(*find_method("fscanf")));
}

TEST(Workloads, AnOperationNotBuiltHereSkipsOnlyThePairsThatNeedIt) {
    // A method built here but for one operation (fast_io_obuf_file without
    // fast_io's locale support): the pairs of that operation are skipped
    // with its reason, the others run.
    const Method m{.name = "t",
                   .put_ints = find_method("fprintf")->put_ints,
                   .put_ints_locale = not_built_because("no locale support here")};
    EXPECT_EQ(find_workload("ints_out")->unavailable(m), "");
    EXPECT_EQ(find_workload("ints_out_locale")->unavailable(m), "no locale support here");
    const Method plain{.name = "u", .put_ints = not_built};
    EXPECT_EQ(find_workload("ints_out")->unavailable(plain), "not built here");
    Method family_wide = plain;
    family_wide.unavailable = "POSIX only";
    EXPECT_EQ(find_workload("ints_out")->unavailable(family_wide), "POSIX only");
}

TEST(Workloads, TrialsOutsideTheDeclarationAreRefused) {
    test::TempDir dir;
    Session session(dir.path(), 1e-4, false);
    EXPECT_THROW(trial_for(*find_workload("ints_out"), *find_method("fscanf"), {}, session), std::invalid_argument);
    const Workload* binary_size = find_workload("binary_size");
    for (const Method& m : methods()) {
        if (!binary_size->takes(m)) continue;
        EXPECT_THROW(trial_for(*binary_size, m, Params{4096}, session), std::invalid_argument) << m.name;
        break;
    }
}

TEST(Workloads, ASizedInputCountsTheInputSizeNotTheScale) {
    test::TempDir dir;
    Session session(dir.path(), 0.5, false);
    const Workload* file_read = find_workload("file_read");
    const Workload* ints_out = find_workload("ints_out");
    EXPECT_TRUE(file_read->spec().sized_input);
    EXPECT_EQ(file_read->count(session), std::uint64_t{1} << 29);  // 1 GiB x 0.5
    EXPECT_EQ(ints_out->count(session), 5'000'000u);
    EXPECT_EQ(sized_input_bytes(session), std::uint64_t{1} << 29);
    session.set_input_size(12345);  // --file-size
    EXPECT_EQ(file_read->count(session), 12345u);
    EXPECT_EQ(ints_out->count(session), 5'000'000u);
    EXPECT_EQ(sized_input_bytes(session), 12345u);
}

TEST(Suite, BadSuitesAreRejectedWithTheReason) {
    // The file's name first, then the parser's own words with the position.
    EXPECT_EQ(error_of("{").rfind("suite t.json: not valid JSON (", 0), 0u) << error_of("{");
    EXPECT_NE(error_of("{").find("line 1, column 2"), std::string::npos) << error_of("{");
    EXPECT_NE(error_of("{\n\"benchmarks\": 3").find("line 2, column 16"), std::string::npos)
        << error_of("{\n\"benchmarks\": 3");
    EXPECT_NE(error_of(R"({"benchmarks": []})").find("\"benchmarks\" must be a non-empty array"), std::string::npos);
    EXPECT_NE(error_of(R"({"benchmarks": [{"workload": "nosuch", "methods": "*"}]})").find("unknown workload \"nosuch\""),
              std::string::npos);
    EXPECT_NE(error_of(R"({"benchmarks": [{"workload": "ints_in", "methods": ["fprintf"]}]})")
                  .find("method \"fprintf\" cannot run workload \"ints_in\""),
              std::string::npos);
    EXPECT_NE(error_of(R"({"benchmarks": [{"workload": "hello", "methods": ["write"], "buffer_sizes": [512]}]})")
                  .find("method \"write\" has no buffer size to set"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"repetitions": 0, "benchmarks": [{"workload": "hello", "methods": "*"}]})")
                  .find("\"repetitions\" must be a whole number from 1 to 1000, not 0"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"benchmark": []})").find("unknown key \"benchmark\""), std::string::npos);
    EXPECT_NE(error_of(R"({"benchmarks": [{"workload": "hello", "method": "*"}]})").find("unknown key \"method\""),
              std::string::npos);
}

TEST(Suite, AbsurdValuesAreRefusedNamingFileAndKey) {
    const std::string hello = R"("benchmarks": [{"workload": "hello", "methods": ["fwrite"]}])";
    auto error_with = [&](const std::string& settings) { return error_of("{" + settings + ", " + hello + "}"); };
    // Bounded, whole repetitions: the bound is in the message.
    EXPECT_EQ(error_with(R"("repetitions": 1000000000)"),
              "suite t.json: \"repetitions\" must be a whole number from 1 to 1000, not 1000000000");
    EXPECT_EQ(error_with(R"("repetitions": 2.5)"),
              "suite t.json: \"repetitions\" must be a whole number from 1 to 1000, not 2.5");
    EXPECT_EQ(error_with(R"("repetitions": "3")"),
              "suite t.json: \"repetitions\" must be a whole number from 1 to 1000, not \"3\"");
    EXPECT_EQ(parse_suite("{\"repetitions\": 1000, " + hello + "}", "t.json").repetitions, 1000);
    // A number beyond a double is an error of the suite, not a crash.
    EXPECT_EQ(error_with(R"("scale": 1e999)").rfind("suite t.json: a number is out of range", 0), 0u)
        << error_with(R"("scale": 1e999)");
    // Type errors name the key.
    EXPECT_EQ(error_with(R"("min_time": "fast")"), "suite t.json: \"min_time\" must be a number, not \"fast\"");
    EXPECT_EQ(error_with(R"("min_time": 1e9)"),
              "suite t.json: \"min_time\" must be a positive number of seconds, at most 86400");
    EXPECT_EQ(error_with(R"("scale": "big")"), "suite t.json: \"scale\" must be a number, not \"big\"");
    EXPECT_EQ(error_with(R"("name": 7)"), "suite t.json: \"name\" must be a string, not 7");
    EXPECT_EQ(error_of(R"({"benchmarks": [{"workload": 3, "methods": "*"}]})"),
              "suite t.json: \"benchmarks[0].workload\" must be a string, not 3");
    EXPECT_EQ(error_of(R"({"benchmarks": [{"workload": "hello", "methods": [1]}]})"),
              "suite t.json: \"benchmarks[0].methods\" must be an array of strings, not 1");
    EXPECT_EQ(error_of(R"({"benchmarks": [{"workload": "hello", "methods": "fwrite"}]})"),
              "suite t.json: \"benchmarks[0].methods\" must be \"*\" or an array of method names, not \"fwrite\"");
    EXPECT_EQ(error_of(R"({"benchmarks": [{"workload": "ints_out", "methods": ["obuf"], "buffer_sizes": [-1]}]})"),
              "suite t.json: \"benchmarks[0].buffer_sizes\" must hold whole numbers of bytes up to 2^40, not -1");
    EXPECT_EQ(error_of(R"({"benchmarks": [{"methods": "*"}]})"), "suite t.json: \"benchmarks[0].workload\" is missing");
    // An empty list was reported as "no benchmark matches --benchmark_filter=".
    EXPECT_EQ(error_of(R"({"benchmarks": [{"workload": "hello", "methods": []}]})"),
              "suite t.json: \"benchmarks[0].methods\" names no method (give \"*\" for all of them)");
    EXPECT_EQ(error_of(R"({"name": "x"})"), "suite t.json: \"benchmarks\" is missing");
    // "sink" too names its key path.
    EXPECT_EQ(error_of(R"({"benchmarks": [{"workload": "hello", "methods": ["fwrite"], "threads": [2], "sink": ["x"]}]})"),
              "suite t.json: \"benchmarks[0].sink\" values must be \"shared\" or \"per_thread\", not \"x\"");
    EXPECT_EQ(error_of(R"({"benchmarks": [{"workload": "hello", "methods": ["fwrite"], "threads": [2], "sink": []}]})"),
              "suite t.json: \"benchmarks[0].sink\" must list \"shared\", \"per_thread\" or both");
}

TEST(Suite, DuplicateKeysAndBytesAfterANulAreRefused) {
    // "scale" given twice silently took the last; what followed a NUL was ignored.
    const std::string hello = R"("benchmarks": [{"workload": "hello", "methods": ["fwrite"]}])";
    EXPECT_EQ(error_of(R"({"scale": 0.01, "scale": 0.02, )" + hello + "}"),
              "suite t.json: the key \"scale\" is given twice in one object");
    EXPECT_EQ(error_of(R"({"benchmarks": [{"workload": "hello", "methods": ["fwrite"], "workload": "ints_out"}]})"),
              "suite t.json: the key \"workload\" is given twice in one object");
    // The same key in two objects is no duplicate.
    EXPECT_EQ(parse_suite(R"({"benchmarks": [{"workload": "hello", "methods": ["fwrite"]},
                                             {"workload": "ints_out", "methods": ["obuf"]}]})",
                          "t.json")
                  .cases.size(),
              2u);
    const std::string with_nul = "{" + hello + "}" + std::string(1, '\0') + "{\"scale\": 5}";
    EXPECT_EQ(error_of(with_nul), fmt::format("suite t.json: a NUL byte at offset {}: not JSON text", hello.size() + 2));
}

TEST(Suite, StdoutTargetIsASuiteSetting) {
    const Suite s = parse_suite(
        R"({"stdout_target": "pipe", "benchmarks": [{"workload": "console_short", "methods": ["fwrite"]}]})", "t.json");
    EXPECT_EQ(s.stdout_target, StdoutTarget::pipe);
    ASSERT_EQ(s.cases.size(), 1u);
    EXPECT_EQ(s.cases[0].name, "console_short/fwrite");  // the target is never part of a name
    EXPECT_EQ(parse_suite(R"({"benchmarks": [{"workload": "hello", "methods": "*"}]})", "t.json").stdout_target,
              std::nullopt);
    const std::string bad =
        error_of(R"({"stdout_target": "tty", "benchmarks": [{"workload": "hello", "methods": "*"}]})");
    EXPECT_NE(bad.find("\"stdout_target\" must be \"devnull\", \"file\" or \"pipe\", not \"tty\""), std::string::npos)
        << bad;
}

TEST(Suite, AStoppingRuleIsTwoKeysBoundedByTheRepetitions) {
    const std::string hello = R"("benchmarks": [{"workload": "hello", "methods": ["fwrite"]}])";
    auto suite_with = [&](const std::string& settings) { return parse_suite("{" + settings + ", " + hello + "}", "t.json"); };
    auto error_with = [&](const std::string& settings) { return error_of("{" + settings + ", " + hello + "}"); };
    const Suite s = suite_with(R"("repetitions": 9, "min_repetitions": 6, "target_interval": 0.02)");
    ASSERT_TRUE(s.stopping_rule);
    EXPECT_EQ(s.stopping_rule->min_repetitions, 6);
    EXPECT_EQ(s.stopping_rule->target_interval, 0.02);
    EXPECT_FALSE(suite_with(R"("repetitions": 9)").stopping_rule);
    // The fewest may be the most (the rule then ends nothing early).
    EXPECT_TRUE(suite_with(R"("repetitions": 6, "min_repetitions": 6, "target_interval": 0.5)").stopping_rule);
    const std::string range =
        "suite t.json: \"min_repetitions\" must be a whole number from 6 (the fewest repetitions with a 95 % interval "
        "of the median) to \"repetitions\" (9), not ";
    EXPECT_EQ(error_with(R"("repetitions": 9, "min_repetitions": 5, "target_interval": 0.02)"), range + "5");
    EXPECT_EQ(error_with(R"("repetitions": 9, "min_repetitions": 10, "target_interval": 0.02)"), range + "10");
    EXPECT_EQ(error_with(R"("repetitions": 9, "min_repetitions": 6.5, "target_interval": 0.02)"), range + "6.5");
    EXPECT_EQ(error_with(R"("repetitions": 9, "min_repetitions": "6", "target_interval": 0.02)"), range + "\"6\"");
    EXPECT_EQ(error_with(R"("repetitions": 9, "min_repetitions": -1, "target_interval": 0.02)"), range + "-1");
    const std::string target =
        "suite t.json: \"target_interval\" must be a fraction of the median above 0 and below 1 (0.02 = ±2 %), not ";
    EXPECT_EQ(error_with(R"("repetitions": 9, "min_repetitions": 6, "target_interval": 0)"), target + "0");
    EXPECT_EQ(error_with(R"("repetitions": 9, "min_repetitions": 6, "target_interval": 1)"), target + "1");
    EXPECT_EQ(error_with(R"("repetitions": 9, "min_repetitions": 6, "target_interval": 2.5)"), target + "2.5");
    EXPECT_EQ(error_with(R"("repetitions": 9, "min_repetitions": 6, "target_interval": -0.02)"), target + "-0.02");
    EXPECT_EQ(error_with(R"("repetitions": 9, "min_repetitions": 6, "target_interval": "2%")"),
              "suite t.json: \"target_interval\" must be a number, not \"2%\"");
    const std::string together = "suite t.json: \"min_repetitions\" and \"target_interval\" go together (the "
                                 "stopping rule): give both or neither";
    EXPECT_EQ(error_with(R"("repetitions": 9, "min_repetitions": 6)"), together);
    EXPECT_EQ(error_with(R"("repetitions": 9, "target_interval": 0.02)"), together);
    EXPECT_EQ(error_with(R"("min_repetitions": 6, "target_interval": 0.02)"),
              "suite t.json: \"min_repetitions\" needs \"repetitions\": the most repetitions a benchmark may run");
}

TEST(Suite, ATimeBudgetIsSecondsWithTheStoppingRule) {
    const std::string hello = R"("benchmarks": [{"workload": "hello", "methods": ["fwrite"]}])";
    const std::string rule = R"("repetitions": 9, "min_repetitions": 6, "target_interval": 0.02, )";
    auto suite_with = [&](const std::string& settings) { return parse_suite("{" + settings + hello + "}", "t.json"); };
    auto error_with = [&](const std::string& settings) { return error_of("{" + settings + hello + "}"); };
    EXPECT_EQ(suite_with(rule).stopping_rule->budget_seconds, 0);  // none unless given
    EXPECT_EQ(suite_with(rule + R"("budget_seconds": 60, )").stopping_rule->budget_seconds, 60);
    EXPECT_EQ(suite_with(rule + R"("budget_seconds": 0.5, )").stopping_rule->budget_seconds, 0.5);
    const std::string range =
        "suite t.json: \"budget_seconds\" must be a number of seconds above 0 and at most 86400, not ";
    EXPECT_EQ(error_with(rule + R"("budget_seconds": 0, )"), range + "0");
    EXPECT_EQ(error_with(rule + R"("budget_seconds": -5, )"), range + "-5");
    EXPECT_EQ(error_with(rule + R"("budget_seconds": 1e9, )"), range + "1000000000.0");
    EXPECT_EQ(error_with(rule + R"("budget_seconds": "60", )"),
              "suite t.json: \"budget_seconds\" must be a number, not \"60\"");
    EXPECT_EQ(error_with(R"("repetitions": 9, "budget_seconds": 60, )"),
              "suite t.json: \"budget_seconds\" needs the stopping rule's \"min_repetitions\" and "
              "\"target_interval\": the fewest repetitions a benchmark runs whatever its budget");
}

TEST(Suite, TheDefaultSuiteStopsRepeatingOnceItsIntervalIsTight) {
    const Suite s = load_suite("default");
    ASSERT_TRUE(s.stopping_rule);
    ASSERT_TRUE(s.repetitions);
    EXPECT_GE(s.stopping_rule->min_repetitions, min_samples_for_median_interval);
    EXPECT_LT(s.stopping_rule->min_repetitions, *s.repetitions);  // it can end a benchmark early
    // At most half the ±5 % at which the summary flags an interval (report_rules::interval_flag).
    EXPECT_LE(s.stopping_rule->target_interval, 0.025);
}

TEST(Suite, SeedSuitesSelectTheirExperiments) {
    auto names = [](const Suite& s) {
        std::vector<std::string> out;
        for (const Case& c : s.cases) out.push_back(c.name);
        for (const Skipped& k : s.skipped) out.push_back(k.name);
        return out;
    };
    auto has = [](const std::vector<std::string>& list, const char* name) {
        return std::find(list.begin(), list.end(), name) != list.end();
    };
    const auto console = names(load_suite("console"));
    for (const char* n : {"console_short/printf", "console_short/printf_literal", "console_short/putchar",
                          "console_medium/fwrite", "console_long/write", "console_int/printf",
                          "console_int_str/sprintf_write", "console_short/printf_IOLBF", "console_short/printf_IOFBF",
                          "console_short/writev", "console_short/cout_unsynced"})
        EXPECT_TRUE(has(console, n)) << n;
    const auto buffering = names(load_suite("buffering"));
    for (const char* n : {"lines/write", "lines/snprintf_write", "lines/fprintf/buf:4096", "lines/obuf"})
        EXPECT_TRUE(has(buffering, n)) << n;
    const auto durability = names(load_suite("durability"));
    for (const char* n : {"lines/write", "lines/write_fsync", "lines/write_fdatasync_100", "lines/write_O_SYNC",
                          "lines/write_O_DSYNC"})
        EXPECT_TRUE(has(durability, n)) << n;
    const auto endl = names(load_suite("endl"));
    EXPECT_TRUE(has(endl, "endl/ofstream"));
    EXPECT_TRUE(has(endl, "endl/ofstream_endl"));
    const auto fast_io = names(load_suite("fast_io"));
    for (const char* n : {"ints_out/fprintf", "ints_out/obuf_mutex", "ints_out/fmt_format_int_obuf",
                          "ints_out/boost_iostreams", "hello/fwrite", "doubles_out/to_chars_obuf", "ints_out/obuf_thread",
                          "ints_out/obuf_io_uring", "ints_out/WriteFile_overlapped", "hello/obuf_thread",
                          "ints_out/scalar_obuf", "ints_out/sse2_obuf", "ints_in/ibuf_thread", "ints_in/ibuf_io_uring"})
        EXPECT_TRUE(has(fast_io, n)) << n;
    // buffer-sizes: 512 B to 4 MiB and each library's default (no /buf).
    const auto sizes = names(load_suite("buffer-sizes"));
    for (const char* n : {"ints_out/fprintf", "ints_out/fprintf/buf:512", "ints_out/fprintf/buf:4194304",
                          "ints_out/obuf", "ints_out/obuf/buf:65536", "ints_out/ofstream/buf:512",
                          "ints_out/obuf_thread/buf:512", "ints_out/obuf_io_uring/buf:4194304"})
        EXPECT_TRUE(has(sizes, n)) << n;
    for (const char* n : {"hello/obuf/buf:65536", "hello/obuf/buf:1048576", "doubles_out/obuf/buf:4194304",
                          "ints_in/ibuf/buf:262144", "ints_in/limit"})
        EXPECT_TRUE(has(sizes, n)) << n;
    // own-methods: iobench's own rows, fast_io's best and the limit, per workload.
    const auto own = names(load_suite("own-methods"));
    for (const char* n : {"ints_out/obuf", "ints_out/obuf_thread", "ints_out/fast_io_obuf_file", "ints_in/ibuf",
                          "ints_in/fast_io_ibuf_file", "hello/obuf", "hello/limit", "doubles_out/obuf",
                          "doubles_out/dragonbox_obuf", "doubles_in/ibuf", "doubles_in/limit", "ints_out/scalar_obuf",
                          "ints_out/sse2_obuf", "ints_in/ibuf_thread", "ints_in/ibuf_io_uring"})
        EXPECT_TRUE(has(own, n)) << n;
}

TEST(Suite, UnknownSuiteNameListsTheBuiltIns) {
    try {
        load_suite("nosuch");
        FAIL() << "no error";
    } catch (const suite_error& e) {
        EXPECT_NE(std::string(e.what()).find("default"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace iobench
