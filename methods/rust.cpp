// rust: Rust's I/O, performed by the program methods/rust/main.rs (rustc -C
// opt-level=3; the standard library only, no crate), one process per trial
// (docs/external-methods.md).
#include "methods/program_family.hpp"

namespace iobench {
namespace {

const ProgramCommand rust = program_of(languages::rust);

const MethodRegistrar registrar{program_family("rust", languages::rust), {
    {.name = "rust_File.write_all",
     .description = "Rust: File::write_all of each line (writeln! into a reused Vec<u8>), no buffer: one write(2) per "
                    "line",
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .program = rust},
    {.name = "rust_BufWriter_writeln",
     .description = "Rust: writeln!(w, \"{}\", i) on a BufWriter<File> (8 KiB; with_capacity at /buf); write_all "
                    "for text; {:?} for doubles (shortest, with an exponent where {} would print up to 309 digits)",
     .default_buffer_size = 8192, .sizable_buffer = true,
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .put_doubles = by_program,
     .program = rust},
    {.name = "rust_BufWriter_manual",
     .description = "Rust: digits formatted by hand into a reused Vec<u8> (no itoa crate), write_all to a "
                    "BufWriter<File> (8 KiB)",
     .default_buffer_size = 8192, .sizable_buffer = true,
     .put_ints = by_program, .put_lines = by_program, .program = rust},
    {.name = "rust_BufReader.lines",
     .description = "Rust: BufReader::lines (8 KiB; with_capacity at /buf), a String per line, str::parse::<u64>",
     .default_buffer_size = 8192, .sizable_buffer = true,
     .get_ints = by_program, .program = rust},
    {.name = "rust_fs.read_split",
     .description = "Rust: std::fs::read of the whole file, split on b'\\n', digits parsed by hand",
     .get_ints = by_program, .program = rust},
}};

}  // namespace
}  // namespace iobench
