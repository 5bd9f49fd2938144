// `iobench --list --format md`: every registered method as a Markdown table
// (docs/methods.md is this output, checked by the test docs.methods).
#pragma once

#include <string>
#include <vector>

#include "core/method.hpp"

namespace iobench {

/// A Markdown document listing `methods` (family, name, the call it makes,
/// its operations, its default buffer, and whether this build can run it or
/// why not), one table row per method in the given order, under a header
/// that says how the document is generated. Cells are escaped so that every
/// description renders as written (`|`, `<`, `*` and `\` outside code spans).
std::string methods_markdown(const std::vector<Method>& methods);

}  // namespace iobench
