// The JSON of a real run (tests/CMakeLists.txt: cli.run_small) is Google
// Benchmark's format plus iobench's context, with every row verified.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <map>
#include <set>
#include <string>

namespace {

nlohmann::json load() {
    std::ifstream in(IOBENCH_TEST_JSON);
    EXPECT_TRUE(in) << "cannot open " << IOBENCH_TEST_JSON;
    return nlohmann::json::parse(in);
}

/// tools/iobench_compare/spec/results_format.json: the results format's spec.
nlohmann::json load_spec() {
    std::ifstream in(IOBENCH_RESULTS_FORMAT_SPEC);
    EXPECT_TRUE(in) << "cannot open " << IOBENCH_RESULTS_FORMAT_SPEC;
    return nlohmann::json::parse(in);
}

TEST(ResultsJson, ContextDescribesTheBuildAndTheMachine) {
    const auto doc = load();
    const auto& ctx = doc.at("context");
    for (const char* key : {"compiler", "standard_library", "build_type", "build_flags", "os", "kernel", "target_dir",
                            "target_filesystem", "page_size", "BUFSIZ", "iobench_version", "iobench_git_commit",
                            "suite", "scale"}) {
        ASSERT_TRUE(ctx.contains(key)) << key;
        EXPECT_FALSE(ctx.at(key).get<std::string>().empty()) << key;
    }
    // Google Benchmark's own fields stay, so its tools can read the file.
    for (const char* key : {"date", "host_name", "executable", "num_cpus", "library_build_type"})
        EXPECT_TRUE(ctx.contains(key)) << key;
    EXPECT_GT(std::stoi(ctx.at("page_size").get<std::string>()), 0);
    EXPECT_GT(std::stoi(ctx.at("BUFSIZ").get<std::string>()), 0);
    EXPECT_EQ(ctx.at("suite"), "default");
    // Run settings and what did not run: the stdout target of the console
    // workloads, and the skipped pairs ("name: reason; ...", empty when none).
    EXPECT_EQ(ctx.at("stdout_target"), "devnull");
    EXPECT_TRUE(ctx.contains("skipped"));
    // The operating system's counters this platform provides: on Linux all of
    // them (on Windows what GetProcessIoCounters and friends give).
    ASSERT_TRUE(ctx.contains("counters"));
#ifdef __linux__
    // (cpu_wait only where the kernel has pressure stall information,
    // run_queue_time only where it keeps scheduler statistics,
    // page_reported_bytes only where it publishes its free page reporting.)
    const std::string all =
        "read_calls,write_calls,user_time,system_time,page_faults,context_switches,read_bytes,write_bytes,steal_time";
    const std::string counters = ctx.at("counters");
    std::set<std::string> expected;
    for (const char* cpu_wait : {"", ",cpu_wait"})
        for (const char* run_queue : {"", ",run_queue_time"})
            for (const char* reported : {"", ",page_reported_bytes"})
                expected.insert(all + cpu_wait + run_queue + reported);
    EXPECT_TRUE(expected.count(counters) == 1) << counters;
#endif
}

TEST(ResultsJson, ContextHoldsTheSpecsKeysOnly) {
    // Every key of the context is one the spec names and means; every key the
    // spec says every file has is there. This run has neither --instructions
    // nor --plugin, so neither of their keys.
    const auto doc = load();
    const auto& ctx = doc.at("context");
    const auto spec = load_spec();
    std::set<std::string> known;
    for (const auto& k : spec.at("context_keys")) {
        const std::string key = k.at("key");
        known.insert(key);
        if (k.at("always").get<bool>()) {
            EXPECT_TRUE(ctx.contains(key)) << key << ": the spec says every results file has it";
        }
    }
    for (const auto& item : ctx.items())
        EXPECT_TRUE(known.count(item.key()))
            << item.key() << ": a context key that tools/iobench_compare/spec/results_format.json's context_keys does not list "
            << "(add it there, with its meaning, and to the README's list)";
    EXPECT_FALSE(ctx.contains("instructions_source"));
    EXPECT_FALSE(ctx.contains("plugins"));
}

TEST(ResultsJson, EveryRowIsVerifiedWithRatesAndPlainNames) {
    const auto doc = load();
    const std::string counters = doc.at("context").value("counters", "");
    const auto available = [&](const char* c) { return counters.find(c) != std::string::npos; };
    std::set<std::string> names;
    int iterations = 0;
    for (const auto& row : doc.at("benchmarks")) {
        EXPECT_FALSE(row.value("error_occurred", false)) << row.dump();
        const std::string name = row.at("run_name");
        EXPECT_EQ(name.find("manual_time"), std::string::npos) << name;
        names.insert(name);
        if (row.at("run_type") != "iteration") continue;
        ++iterations;
        EXPECT_GT(row.at("bytes_per_second").get<double>(), 0) << name;
        EXPECT_GT(row.at("items_per_second").get<double>(), 0) << name;
        EXPECT_EQ(row.at("verified").get<double>(), 1.0) << name;
        EXPECT_GT(row.at("real_time").get<double>(), 0) << name;
        // What explains the time: the system calls of one run and their size,
        // CPU time and page faults, on every row.
        const bool input = name.rfind("ints_in/", 0) == 0;
        const char* calls = input ? "read_calls" : "write_calls";
        const bool in_memory = name.ends_with("/memcpy");  // no file: no call, no bytes per call
        if (available(calls) && in_memory) {
            EXPECT_EQ(row.at(calls).get<double>(), 0) << name;
            EXPECT_FALSE(row.contains("bytes_per_call")) << name;
        } else if (available(calls)) {
            EXPECT_GE(row.at(calls).get<double>(), 1) << name;
            EXPECT_NEAR(row.at("bytes_per_call").get<double>() * row.at(calls).get<double>(),
                        row.at("bytes_per_second").get<double>() * row.at("real_time").get<double>() / 1e3,
                        1e-6 * row.at("bytes_per_second").get<double>())
                << name;  // real_time in ms
        }
        for (const char* c : {"user_time", "system_time", "page_faults"})
            if (available(c)) {
                EXPECT_GE(row.at(c).get<double>(), 0) << name;
            }
        // A counter the platform does not provide is left out, never 0.
        for (const char* c : {"read_calls", "write_calls", "context_switches", "read_bytes", "write_bytes"})
            if (!available(c)) {
                EXPECT_FALSE(row.contains(c)) << name << " " << c;
            }
        // Calls left out say why (none of these methods' I/O is other than
        // system calls): under wine, which counts none, every row.
        if (available(calls)) {
            EXPECT_FALSE(row.contains("calls_not_counted")) << name;
        } else {
            const std::string why = row.value("calls_not_counted", "");
            const bool wine = doc.at("context").value("os", "").find("(wine ") != std::string::npos;
            EXPECT_EQ(why.rfind(wine ? "not counted under wine: " : "not counted: ", 0), 0u) << name << ": " << why;
        }
        // Every method is also given as a multiple of its workload's limit row.
        if (name.find("/limit") == std::string::npos && !in_memory) {
            EXPECT_GT(row.at("x_limit").get<double>(), 0) << name;
        } else {
            EXPECT_FALSE(row.contains("x_limit")) << name;
        }
    }
#ifdef _WIN32
    const std::string unbuffered = "WriteFile";  // write(2) is POSIX only
#else
    const std::string unbuffered = "write";  // WriteFile is Windows only
#endif
    const std::set<std::string> expected = {
        "ints_out/fprintf", "ints_out/ofstream", "ints_out/" + unbuffered, "ints_out/obuf",
        "ints_out/limit",   "ints_out/limit_overwrite", "ints_out/memcpy", "ints_in/fscanf", "ints_in/ifstream",
        "ints_in/ibuf",     "ints_in/limit",     "hello/fwrite",  "hello/ofstream",
        "hello/obuf",       "hello/limit",       "hello/limit_overwrite", "hello/memcpy"};
    EXPECT_EQ(names, expected);
    EXPECT_EQ(iterations, 2 * 17);  // --benchmark_repetitions=2
}

TEST(ResultsJson, EveryRowCarriesItsStructure) {
    // Readers take a row's workload, method and parameters from its fields,
    // never from its name.
    const auto doc = load();
    int medians = 0;
    for (const auto& row : doc.at("benchmarks")) {
        const std::string name = row.at("run_name");
        const std::string workload = row.at("workload");
        const std::string method = row.at("method");
        EXPECT_EQ(name, workload + "/" + method) << "the default suite sweeps no parameter";
        EXPECT_FALSE(row.at("family").get<std::string>().empty()) << name;
        EXPECT_EQ(row.at("reference").get<bool>(),
                  method == "limit" || method == "limit_overwrite" || method == "memcpy")
            << name;
        // Only limit_overwrite's rows say that they write over an existing file,
        // only memcpy's that they copy in memory.
        EXPECT_EQ(row.value("overwrites_existing", false), method == "limit_overwrite") << name;
        EXPECT_EQ(row.value("copies_in_memory", false), method == "memcpy") << name;
        EXPECT_TRUE(row.at("params").is_object() && row.at("params").empty()) << name;
        EXPECT_EQ(row.at("item_unit"), workload == "hello" ? "line" : "integer") << name;
        EXPECT_EQ(row.at("compared_per"), "item") << name;
        if (row.at("run_type") == "iteration") {
            // What one run did: the integers or lines, and their bytes.
            EXPECT_GT(row.at("items").get<double>(), 0) << name;
            EXPECT_NEAR(row.at("items").get<double>() * 1e3 / row.at("real_time").get<double>(),
                        row.at("items_per_second").get<double>(), 1e-6 * row.at("items_per_second").get<double>())
                << name;
            EXPECT_GT(row.at("bytes").get<double>(), row.at("items").get<double>()) << name;
        }
        if (row.value("aggregate_name", "") == "median" && !row.at("reference").get<bool>()) {
            ++medians;
            EXPECT_GT(row.at("x_limit").get<double>(), 0) << name;
        }
    }
    EXPECT_EQ(medians, 10);  // every method but the seven reference rows
    // x_limit is the time over limit's, never over limit_overwrite's or memcpy's.
    std::map<std::string, double> median_ms;
    for (const auto& row : doc.at("benchmarks"))
        if (row.value("aggregate_name", "") == "median") median_ms[row.at("run_name")] = row.at("real_time");
    for (const auto& row : doc.at("benchmarks")) {
        if (row.value("aggregate_name", "") == "median" && row.at("run_name") == "hello/obuf") {
            EXPECT_NEAR(row.at("x_limit").get<double>(), median_ms.at("hello/obuf") / median_ms.at("hello/limit"),
                        1e-6 * row.at("x_limit").get<double>());
        }
    }
}

TEST(ResultsJson, AnEmulatedCpuIsSaidInTheContextAndOnEveryRow) {
    // The ARM64 build's tests run under qemu-aarch64 (IOBENCH_TESTS_UNDER_QEMU): its times are qemu's.
    const auto doc = load();
    const auto& ctx = doc.at("context");
#ifdef IOBENCH_TESTS_UNDER_QEMU
    constexpr bool emulated = true;
    ASSERT_TRUE(ctx.contains("emulator"));
    EXPECT_EQ(ctx.at("emulator").get<std::string>().substr(0, 5), "qemu-") << ctx.at("emulator");
    // Nor are the kernel's counts of qemu's own system calls this program's.
    EXPECT_EQ(ctx.at("syscall_counter").get<std::string>().substr(0, 33), "not counted under a CPU emulator ");
#else
    constexpr bool emulated = false;
    EXPECT_FALSE(ctx.contains("emulator")) << ctx.at("emulator");
#endif
    for (const auto& row : doc.at("benchmarks")) {
        EXPECT_EQ(row.contains("emulated"), emulated) << row.at("name");
        if constexpr (emulated) {
            if (row.contains("emulated")) {
                EXPECT_EQ(row.at("emulated"), true) << row.at("name");
            }
        }
    }
}

}  // namespace
