// python: Python's I/O, performed by the program methods/python/iobench_methods.py
// (CPython; the standard library only), one process per trial
// (docs/external-methods.md). Files are opened in text mode as UTF-8, as
// Python's users open them; open()'s own buffer is sized with buffering=N at
// /buf (N = 1 means line buffering to Python: a write per line).
#include "methods/program_family.hpp"

namespace iobench {
namespace {

const ProgramCommand python = program_of(languages::python);

const MethodRegistrar registrar{program_family("python", languages::python), {
    {.name = "python_write",
     .description = "Python: f.write(f\"{i}\\n\") per line on a text file (open()'s buffer); repr for doubles",
     .default_buffer_size = 8192, .sizable_buffer = true,
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .put_doubles = by_program,
     .program = python},
    {.name = "python_print",
     .description = "Python: print(i, file=f) per line on a text file (open()'s buffer)",
     .default_buffer_size = 8192, .sizable_buffer = true,
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .put_doubles = by_program,
     .program = python},
    {.name = "python_join",
     .description = "Python: the whole text as one string ('\\n'.join(map(str, range(n))); line * n for a repeated "
                    "line), one f.write",
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .put_doubles = by_program,
     .program = python},
    {.name = "python_int",
     .description = "Python: [int(line) for line in f] on a text file (open()'s buffer)",
     .default_buffer_size = 8192, .sizable_buffer = true,
     .get_ints = by_program, .program = python},
    {.name = "python_map_int_split",
     .description = "Python: list(map(int, f.read().split()))",
     .get_ints = by_program, .program = python},
}};

}  // namespace
}  // namespace iobench
