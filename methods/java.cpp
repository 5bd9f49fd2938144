// java: Java's I/O, performed by the program methods/java/IobenchMethods.java
// (javac, run with java -jar; the JDK only), one process per trial
// (docs/external-methods.md). Buffer sizes are in chars (one byte each for
// this ASCII text, once encoded as UTF-8).
#include "methods/program_family.hpp"

namespace iobench {
namespace {

const ProgramCommand java = program_of(languages::java);

const MethodRegistrar registrar{program_family("java", languages::java), {
    {.name = "java_FileOutputStream.write",
     .description = "Java: FileOutputStream.write of each line's bytes ((i + \"\\n\").getBytes(UTF_8)), no buffer: "
                    "one write(2) per line",
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .program = java},
    {.name = "java_BufferedWriter",
     .description = "Java: BufferedWriter (8192 chars; BufferedWriter(w, size) at /buf) on a FileWriter (UTF-8): "
                    "write(Long.toString(i)), write('\\n'); Double.toString for doubles",
     .default_buffer_size = 8192, .sizable_buffer = true,
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .put_doubles = by_program,
     .program = java},
    {.name = "java_PrintWriter",
     .description = "Java: PrintWriter on that BufferedWriter: println(i), print(line), println(double); checkError() "
                    "after close",
     .default_buffer_size = 8192, .sizable_buffer = true,
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .put_doubles = by_program,
     .program = java},
    {.name = "java_BufferedReader.readLine",
     .description = "Java: BufferedReader.readLine (8192 chars; at /buf, BufferedReader(r, size)) on a FileReader "
                    "(UTF-8), Long.parseLong into a long[]",
     .default_buffer_size = 8192, .sizable_buffer = true,
     .get_ints = by_program, .program = java},
}};

}  // namespace
}  // namespace iobench
