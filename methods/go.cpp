// go: Go's I/O, performed by the program methods/go/main.go (go build; the
// standard library only), one process per trial (docs/external-methods.md).
// Among them the buffering seed's own two functions (its fmt.Sprintf per line,
// then os.File.Write or bufio.Writer.WriteString), on the lines workload.
#include "methods/program_family.hpp"

namespace iobench {
namespace {

const ProgramCommand go = program_of(languages::go);

const MethodRegistrar registrar{program_family("go", languages::go), {
    {.name = "go_File.Write",
     .description = "Go: os.File.Write of each line (strconv.AppendUint into a scratch slice), no buffer: one write(2) "
                    "per line",
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .program = go},
    {.name = "go_bufio.Writer",
     .description = "Go: bufio.Writer on the os.File (NewWriter: 4 KiB; NewWriterSize at /buf): strconv.AppendInt "
                    "(AppendFloat 'g' -1) into a scratch slice, Write; WriteString for text",
     .default_buffer_size = 4096, .sizable_buffer = true,
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .put_doubles = by_program,
     .program = go},
    {.name = "go_fmt.Fprintf",
     .description = "Go: fmt.Fprintf(w, \"%d\\n\", i) on a bufio.Writer (4 KiB); fmt.Fprintln for text and doubles",
     .default_buffer_size = 4096, .sizable_buffer = true,
     .put_ints = by_program, .put_repeat = by_program, .put_lines = by_program, .put_doubles = by_program,
     .program = go},
    {.name = "go_strconv.AppendInt",
     .description = "Go: strconv.AppendInt of every number into one growing []byte, then one os.File.Write",
     .put_ints = by_program, .put_lines = by_program, .program = go},
    {.name = "go_seed_unbuffered",
     .description = "Go, the buffering seed's writeUnbuffered: data := fmt.Sprintf(format, i), f.Write([]byte(data)) "
                    "per line",
     .put_lines = by_program, .program = go},
    {.name = "go_seed_buffered",
     .description = "Go, the buffering seed's writeBuffered: data := fmt.Sprintf(format, i), w.WriteString(data) on "
                    "bufio.NewWriter (4 KiB), Flush",
     .default_buffer_size = 4096,
     .put_lines = by_program, .program = go},
    {.name = "go_bufio.Scanner",
     .description = "Go: bufio.Scanner's lines (4 KiB buffer; at /buf, Scanner.Buffer), strconv.ParseUint(s.Text())",
     .default_buffer_size = 4096, .sizable_buffer = true,
     .get_ints = by_program, .program = go},
    {.name = "go_fmt.Fscan",
     .description = "Go: fmt.Fscan(r, &v) on a bufio.Reader (4 KiB; NewReaderSize at /buf)",
     .default_buffer_size = 4096, .sizable_buffer = true,
     .get_ints = by_program, .program = go},
}};

}  // namespace
}  // namespace iobench
