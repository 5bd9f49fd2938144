// `iobench --list --format md`: every registered method as a Markdown table
// (docs/methods.md is this output, checked by the test docs.methods).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <iobench/method.hpp>
#include "core/engine/workload.hpp"

namespace iobench {

/// A Markdown document listing `methods` (family, name, the call it makes,
/// its operations, and whether this build can run it or why not), one table
/// row per method in the given order, under a header that says how the
/// document is generated; then every operation with the `workloads` that take
/// it (those that run some method of `methods` having only that operation).
/// Cells are escaped so that every description renders as written (`|`, `<`,
/// `*`, `_` and `\` outside code spans).
std::string methods_markdown(const std::vector<Method>& methods,
                             const std::vector<std::unique_ptr<Workload>>& workloads);

}  // namespace iobench
