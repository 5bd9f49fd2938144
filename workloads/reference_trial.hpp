// The trials of the `limit` reference (methods/limit.cpp): what the kernel
// alone costs for a workload's bytes. Every output and input workload pairs
// itself with a reference method (Method::reference) through these, so the
// summary can give each row as a multiple of it (x_limit).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "core/session.hpp"
#include "core/workload.hpp"
#include "data/checksum.hpp"

namespace iobench {

/// True when `method` is a reference that an output workload can run: it
/// writes prepared bytes (Method::put_prepared).
bool is_output_reference(const Method& method);

/// True when `method` is a reference that an input workload can run: it
/// reads and folds a whole file (Method::read_bytes on a reference method).
bool is_input_reference(const Method& method);

/// The output workload `workload`'s expected bytes (from `expected`, the
/// generator its methods are verified against, cached under `expected_key`),
/// generated into memory when the trial is made, outside any measurement;
/// a run writes them with the method's put_prepared, and is verified like
/// every output (size and checksum of the file). `items` per run as the
/// workload counts them.
std::unique_ptr<Trial> make_output_reference_trial(Session& session, std::string_view workload, const Method& method,
                                                   const Params& params, const std::string& expected_key,
                                                   Generator expected, std::uint64_t items);

/// An input workload's file at `input`, read to its end by the method's
/// read_bytes (no parsing), verified by byte count and fold (data/byte_fold.hpp)
/// against `expected`, the generator the file was written from. `items` per
/// run as the workload counts them.
std::unique_ptr<Trial> make_input_reference_trial(const std::filesystem::path& input, const Method& method,
                                                  const Params& params, const Generator& expected,
                                                  std::uint64_t items);

}  // namespace iobench
