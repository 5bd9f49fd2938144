// The trials of the `limit` reference (methods/limit.cpp): what the kernel
// alone costs for a workload's bytes. The runner pairs the reference with
// every workload that declares a reference row (WorkloadSpec::reference) and
// makes its trial here, from what the workload declares, so the summary can
// give each row as a multiple of it (x_limit).
#pragma once

#include <memory>

#include "core/engine/session.hpp"
#include "core/engine/workload.hpp"

namespace iobench {

/// The `limit` row of `workload` for the reference `method`:
///  - ReferenceKind::output: the workload's expected bytes
///    (Workload::expected_output), generated into memory when the trial is
///    made, outside any measurement; a run writes them with the method's
///    put_prepared and is verified like every output (size and checksum of
///    the file);
///  - ReferenceKind::input: the workload's input file (Workload::input_file),
///    read to its end by the method's read_bytes (no parsing), verified by
///    byte count and fold (iobench/byte_fold.hpp) against the generator the file
///    was written from.
/// Throws std::logic_error when the workload declares no reference row.
std::unique_ptr<Trial> make_reference_trial(const Workload& workload, const Method& method, const Params& params,
                                            Session& session);

}  // namespace iobench
