#include "data/log_records.hpp"

#include <fmt/format.h>

#include <array>
#include <string_view>

namespace iobench {

namespace {

/// A 64-bit mix of `x` (the finalizer of SplitMix64, Steele, Lea and Flood,
/// "Fast splittable pseudorandom number generators", OOPSLA 2014).
constexpr std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

constexpr std::array<std::string_view, 6> loggers = {"app", "net.http", "db.pool", "auth", "cache.lru",
                                                     "scheduler.worker"};

// 8 to 120 bytes; no '%' and no '\n'. String literals: NUL-terminated.
constexpr std::array<std::string_view, 16> texts = {
    "ok",
    "cache hit",
    "connection reused",
    "retrying after a timeout",
    "user signed in with a session token",
    "slow query on table orders (full scan, 12 rows returned)",
    "upstream answered 503; marking the backend unhealthy for 30 s",
    "request body was 0 bytes",
    "flushed 128 dirty pages to the write-ahead log before the checkpoint could start",
    "rate limit reached for client 10.0.0.7; answering 429 Too Many Requests until the window moves on",
    "config reloaded",
    "worker pool grew from 8 to 16 threads because the run queue stayed above its high-water mark for 5 s",
    "tls handshake finished",
    "scheduled job nightly-compaction started on shard 3 of 12 with a budget of 900 seconds and 4 GiB of memory",
    "deprecated header X-Forwarded-Host seen",
    "gc pause",
};

constexpr std::uint64_t base_time_us = 1'764'300'000'000'000ull;  // 2025-11-28, 03:20 UTC

}  // namespace

LogRecord log_record(std::uint64_t i) {
    const std::uint64_t h = mix(i);
    LogRecord r;
    r.time_us = base_time_us + i * 37 + (h & 31);  // 37 > 31: strictly increasing
    const unsigned severity = static_cast<unsigned>((h >> 8) % 20);
    r.level = severity < 3 ? LogLevel::debug : severity < 17 ? LogLevel::info : severity < 19 ? LogLevel::warn : LogLevel::error;
    r.logger = loggers[(h >> 16) % loggers.size()];
    r.request = i;
    r.duration_us = (h >> 24) % 100'000;
    r.text = texts[(h >> 40) % texts.size()];
    return r;
}

void append_log_line(std::string& out, const LogRecord& r) {
    fmt::format_to(std::back_inserter(out), "{}.{:06} {} [{}] request {} done in {} us: {}\n", r.time_us / 1'000'000,
                   r.time_us % 1'000'000, level_name(r.level), r.logger, r.request, r.duration_us, r.text);
}

std::string log_line(std::uint64_t i) {
    std::string line;
    append_log_line(line, log_record(i));
    return line;
}

Generator log_text(std::uint64_t count) {
    return [count](const ChunkFn& emit) {
        std::string chunk;
        chunk.reserve((1u << 20) + 256);
        for (std::uint64_t i = 0; i < count; ++i) {
            append_log_line(chunk, log_record(i));
            if (chunk.size() >= (1u << 20)) {
                emit(chunk);
                chunk.clear();
            }
        }
        if (!chunk.empty()) emit(chunk);
    };
}

}  // namespace iobench
