// iobench's Java methods: a program that performs the runs of one benchmark as
// Java's users write them, following the protocol of docs/external-methods.md:
//
//     java -jar iobench-java.jar METHOD OPERATION PATH COUNT BUFFER_SIZE [ARGUMENT...]
//     java -jar iobench-java.jar --list
//
// It prints "ready" once set up, then answers each line "run" on its standard
// input with one run (open, write or read everything, close), timed with
// System.nanoTime (monotonic), and the line "<ns>"; after a get_ints run,
// "check" with "<count> <checksum>" of the values it parsed; "ping" with
// "pong"; end of input ends it. An error is one line on standard error and exit status 1.
//
// The JDK only. Text is written and read as UTF-8, named explicitly (Java 17's
// default charset follows the locale).
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

public final class IobenchMethods {
    /** What a run is asked to do (the command line), plus what the setup prepared. */
    static final class Request {
        String path;
        long count;
        int buffer;       // user-space buffer in chars; 0: the method's default
        String line;      // put_repeat: the line, with its '\n'
        String prefix;    // put_lines: text before the number
        String suffix;    // put_lines: text after it, with the '\n'
        double[] values;  // put_doubles: the values
        long[] ints;      // get_ints: the values parsed
        int parsed;       // get_ints: how many
    }

    interface Operation {
        void run(Request r) throws IOException;
    }

    /** method -> operation -> function. */
    static final Map<String, Map<String, Operation>> METHODS = new TreeMap<>();

    static void add(String method, String operation, Operation function) {
        METHODS.computeIfAbsent(method, k -> new TreeMap<>()).put(operation, function);
    }

    static {
        // FileOutputStream.write per line: one write(2) per line, no buffer.
        add("java_FileOutputStream.write", "put_ints", IobenchMethods::streamInts);
        add("java_FileOutputStream.write", "put_repeat", IobenchMethods::streamRepeat);
        add("java_FileOutputStream.write", "put_lines", IobenchMethods::streamLines);
        // BufferedWriter (8192 chars unless sized) on a FileWriter: write(String), write('\n').
        add("java_BufferedWriter", "put_ints", IobenchMethods::writerInts);
        add("java_BufferedWriter", "put_repeat", IobenchMethods::writerRepeat);
        add("java_BufferedWriter", "put_lines", IobenchMethods::writerLines);
        add("java_BufferedWriter", "put_doubles", IobenchMethods::writerDoubles);
        // PrintWriter on a BufferedWriter: println(long), print(String), println(double).
        add("java_PrintWriter", "put_ints", IobenchMethods::printInts);
        add("java_PrintWriter", "put_repeat", IobenchMethods::printRepeat);
        add("java_PrintWriter", "put_lines", IobenchMethods::printLines);
        add("java_PrintWriter", "put_doubles", IobenchMethods::printDoubles);
        // BufferedReader.readLine and Long.parseLong.
        add("java_BufferedReader.readLine", "get_ints", IobenchMethods::readLineInts);
    }

    // --- output --------------------------------------------------------------

    static void streamInts(Request r) throws IOException {
        try (FileOutputStream out = new FileOutputStream(r.path)) {
            for (long i = 0; i < r.count; ++i) out.write((i + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    static void streamRepeat(Request r) throws IOException {
        try (FileOutputStream out = new FileOutputStream(r.path)) {
            final byte[] line = r.line.getBytes(StandardCharsets.UTF_8);
            for (long i = 0; i < r.count; ++i) out.write(line);
        }
    }

    static void streamLines(Request r) throws IOException {
        try (FileOutputStream out = new FileOutputStream(r.path)) {
            for (long i = 0; i < r.count; ++i) out.write((r.prefix + i + r.suffix).getBytes(StandardCharsets.UTF_8));
        }
    }

    static BufferedWriter writer(Request r) throws IOException {
        final FileWriter file = new FileWriter(r.path, StandardCharsets.UTF_8);
        return r.buffer > 0 ? new BufferedWriter(file, r.buffer) : new BufferedWriter(file);
    }

    static void writerInts(Request r) throws IOException {
        try (BufferedWriter w = writer(r)) {
            for (long i = 0; i < r.count; ++i) {
                w.write(Long.toString(i));
                w.write('\n');
            }
        }
    }

    static void writerRepeat(Request r) throws IOException {
        try (BufferedWriter w = writer(r)) {
            for (long i = 0; i < r.count; ++i) w.write(r.line);
        }
    }

    static void writerLines(Request r) throws IOException {
        try (BufferedWriter w = writer(r)) {
            for (long i = 0; i < r.count; ++i) {
                w.write(r.prefix);
                w.write(Long.toString(i));
                w.write(r.suffix);
            }
        }
    }

    /** Double.toString: enough digits to read back exactly ("1.2345E307"). */
    static void writerDoubles(Request r) throws IOException {
        try (BufferedWriter w = writer(r)) {
            for (double v : r.values) {
                w.write(Double.toString(v));
                w.write('\n');
            }
        }
    }

    /** PrintWriter swallows IOException: checkError() after close says whether one happened. */
    static void closeChecked(PrintWriter p, String path) throws IOException {
        p.close();
        if (p.checkError()) throw new IOException(path + ": PrintWriter reported an error");
    }

    static PrintWriter printer(Request r) throws IOException {
        return new PrintWriter(writer(r));
    }

    static void printInts(Request r) throws IOException {
        final PrintWriter p = printer(r);
        for (long i = 0; i < r.count; ++i) p.println(i);
        closeChecked(p, r.path);
    }

    static void printRepeat(Request r) throws IOException {
        final PrintWriter p = printer(r);
        for (long i = 0; i < r.count; ++i) p.print(r.line);
        closeChecked(p, r.path);
    }

    static void printLines(Request r) throws IOException {
        final PrintWriter p = printer(r);
        for (long i = 0; i < r.count; ++i) {
            p.print(r.prefix);
            p.print(i);
            p.print(r.suffix);
        }
        closeChecked(p, r.path);
    }

    static void printDoubles(Request r) throws IOException {
        final PrintWriter p = printer(r);
        for (double v : r.values) p.println(v);
        closeChecked(p, r.path);
    }

    // --- input ---------------------------------------------------------------

    static void readLineInts(Request r) throws IOException {
        final FileReader file = new FileReader(r.path, StandardCharsets.UTF_8);
        int n = 0;
        try (BufferedReader in = r.buffer > 0 ? new BufferedReader(file, r.buffer) : new BufferedReader(file)) {
            for (String line; (line = in.readLine()) != null; ) {
                if (n == r.ints.length) r.ints = Arrays.copyOf(r.ints, Math.max(16, 2 * n));
                r.ints[n++] = Long.parseLong(line);
            }
        }
        r.parsed = n;
    }

    /** The protocol's checksum of parsed values: the sum of (i+1)*v[i] modulo 2^64. */
    static long checksum(long[] values, int n) {
        long sum = 0;
        for (int i = 0; i < n; ++i) sum += (i + 1L) * values[i];
        return sum;
    }

    // --- the protocol --------------------------------------------------------

    static void fail(String message) {
        System.err.println("iobench-java: " + message);
        System.exit(1);
    }

    static double[] readDoubles(String path, long count) throws IOException {
        final byte[] data = Files.readAllBytes(Paths.get(path));
        if (data.length != count * 8) throw new IOException(path + ": " + data.length + " bytes, expected " + count + " doubles");
        final double[] values = new double[(int) count];
        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(values);
        return values;
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 1 && args[0].equals("--list")) {
            for (Map.Entry<String, Map<String, Operation>> m : METHODS.entrySet())
                System.out.println(m.getKey() + " " + String.join(" ", m.getValue().keySet()));
            return;
        }
        if (args.length < 5) fail("usage: iobench-java METHOD OPERATION PATH COUNT BUFFER_SIZE [ARGUMENT...] | --list");
        final String name = args[0], op = args[1];
        final String[] extra = Arrays.copyOfRange(args, 5, args.length);
        final Request r = new Request();
        r.path = args[2];
        try {
            r.count = Long.parseLong(args[3]);
            r.buffer = Integer.parseInt(args[4]);
        } catch (NumberFormatException e) {
            fail("COUNT or BUFFER_SIZE: " + e.getMessage());
        }
        final Map<String, Integer> wanted = Map.of("put_ints", 0, "get_ints", 0, "put_repeat", 1, "put_doubles", 1, "put_lines", 2);
        if (!wanted.containsKey(op) || wanted.get(op) != extra.length)
            fail("operation \"" + op + "\" with " + extra.length + " arguments: not an operation of the protocol");
        if (!METHODS.containsKey(name)) fail("unknown method \"" + name + "\"");
        final Operation function = METHODS.get(name).get(op);
        if (function == null) fail("method " + name + " has no operation " + op);
        try {
            switch (op) {
                case "put_repeat": r.line = extra[0]; break;
                case "put_lines": r.prefix = extra[0]; r.suffix = extra[1]; break;
                case "put_doubles": r.values = readDoubles(extra[0], r.count); break;
                case "get_ints":
                    // Every page written once now, not in the first run.
                    r.ints = new long[(int) r.count];
                    Arrays.fill(r.ints, 1);
                    break;
                default: break;
            }
        } catch (IOException e) {
            fail(e.getMessage());
        }

        // One write per reply: a buffered stream, flushed once per line.
        final FileOutputStream stdout = new FileOutputStream(FileDescriptor.out);
        final BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        reply(stdout, "ready");
        for (String request; (request = requests.readLine()) != null; ) {
            switch (request.trim()) {
                case "ping":
                    reply(stdout, "pong");
                    break;
                case "run": {
                    final long start = System.nanoTime();
                    try {
                        function.run(r);
                    } catch (IOException | RuntimeException e) {
                        fail(r.path + ": " + e);
                    }
                    final long ns = System.nanoTime() - start;
                    reply(stdout, Long.toString(ns));
                    break;
                }
                case "check":
                    if (!op.equals("get_ints")) fail("\"check\" is for get_ints");
                    reply(stdout, r.parsed + " " + Long.toUnsignedString(checksum(r.ints, r.parsed)));
                    break;
                default:
                    fail("unknown request \"" + request.trim() + "\"");
            }
        }
    }

    static void reply(FileOutputStream out, String line) {
        try {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            fail("standard output: " + e.getMessage());
        }
    }
}
