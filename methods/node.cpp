// node: Node.js's file output, performed by the program methods/node/iobench_methods.js
// (Node's own modules only), one process per trial (docs/external-methods.md).
#include "methods/program_family.hpp"

namespace iobench {
namespace {

const ProgramCommand node = program_of(languages::node);

const MethodRegistrar registrar{program_family("node", languages::node), {
    {.name = "node_fs.writeSync",
     .description = "Node.js: fs.writeSync(fd, `${i}\\n`) per line, no buffer: one write(2) per line",
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .program = node},
    {.name = "node_WriteStream",
     .description = "Node.js: fs.createWriteStream (highWaterMark 16 KiB; sized at /buf), write() per line, awaiting "
                    "'drain' when it returns false, then end() and 'close'",
     .default_buffer_size = 16384, .sizable_buffer = true,
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .put_doubles = by_program,
     .program = node},
    {.name = "node_Buffer",
     .description = "Node.js: the whole text in one Buffer (an array's join; Buffer.alloc(size, line) for a repeated "
                    "line), one fs.writeFileSync",
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .put_doubles = by_program,
     .program = node},
}};

}  // namespace
}  // namespace iobench
