// What the program method families share (methods/go.cpp, rust.cpp, java.cpp,
// python.cpp, node.cpp; docs/external-methods.md): each registers the methods
// its program in methods/<language>/ performs, with the command this build
// made for it, or, when its toolchain was not found, the reason as the
// family's `unavailable`.
#pragma once

#include <string>

#include <iobench/method.hpp>
#include "generated/language_programs.hpp"

namespace iobench {

/// The command that runs `program` (cmake/IobenchLanguages.cmake made it).
inline ProgramCommand program_of(const languages::Program& program) {
    ProgramCommand command;
    if (!program.interpreter.empty()) command.interpreter.emplace_back(program.interpreter);
    if (!program.option.empty()) command.interpreter.emplace_back(program.option);
    command.file = std::string(program.file);
    return command;
}

/// The defaults of the family `family` whose methods `program` performs.
inline FamilyDefaults program_family(std::string family, const languages::Program& program) {
    return {std::move(family), std::string(program.not_built)};
}

}  // namespace iobench
