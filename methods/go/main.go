// iobench's Go methods: a program that performs the runs of one benchmark as
// Go's users write them, following the protocol of docs/external-methods.md:
//
//	iobench-go METHOD OPERATION PATH COUNT BUFFER_SIZE [ARGUMENT...]
//	iobench-go --list
//
// It prints "ready" once set up, then answers each line "run" on its standard
// input with one run (open, write or read everything, close), timed with Go's
// monotonic clock (time.Now/time.Since), and the line "<ns>"; after a get_ints
// run, "check" with "<count> <checksum>" of the values it parsed; "ping" with
// "pong"; end of input ends it. An error is one line on standard error and exit status 1.
//
// The standard library only: no module to download.
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// request is what a run is asked to do (the command line), plus what the
// setup prepared outside the timed runs.
type request struct {
	path   string
	count  uint64
	buffer int      // user-space buffer in bytes; 0: the method's default
	line   string   // put_repeat: the line, with its '\n'
	prefix string   // put_lines: text before the number
	suffix string   // put_lines: text after it, with the '\n'
	values []float64 // put_doubles: the values, read from the file named by the argument
	ints   []uint64  // get_ints: room for count values, allocated (and touched) once
}

type output func(r *request) error
type input func(r *request) ([]uint64, error)

// method is one row of the table: the operations it performs.
type method struct {
	outputs map[string]output
	input   input
}

var methods = map[string]method{
	// os.File.Write per line: one write(2) per line, no buffer.
	"go_File.Write": {outputs: map[string]output{
		"put_ints":   fileWriteInts,
		"put_repeat": fileWriteRepeat,
		"put_lines":  fileWriteLines,
	}},
	// bufio.Writer (4 KiB unless sized): strconv.AppendInt into a scratch
	// slice, then Write; WriteString for text.
	"go_bufio.Writer": {outputs: map[string]output{
		"put_ints":    bufioInts,
		"put_repeat":  bufioRepeat,
		"put_lines":   bufioLines,
		"put_doubles": bufioDoubles,
	}},
	// fmt.Fprintf / Fprintln on a bufio.Writer.
	"go_fmt.Fprintf": {outputs: map[string]output{
		"put_ints":    fprintfInts,
		"put_repeat":  fprintlnRepeat,
		"put_lines":   fprintfLines,
		"put_doubles": fprintlnDoubles,
	}},
	// Everything formatted with strconv.AppendInt into one []byte, then one Write.
	"go_strconv.AppendInt": {outputs: map[string]output{
		"put_ints":  appendIntInts,
		"put_lines": appendIntLines,
	}},
	// The buffering seed's two functions as it wrote them: fmt.Sprintf per
	// line, then f.Write([]byte(data)) or w.WriteString(data) on bufio.NewWriter.
	"go_seed_unbuffered": {outputs: map[string]output{"put_lines": seedUnbuffered}},
	"go_seed_buffered":   {outputs: map[string]output{"put_lines": seedBuffered}},
	// bufio.Scanner's lines, strconv.ParseUint of each.
	"go_bufio.Scanner": {input: scannerInts},
	// fmt.Fscan on a bufio.Reader.
	"go_fmt.Fscan": {input: fscanInts},
}

// --- output -------------------------------------------------------------

func fileWriteInts(r *request) error {
	f, err := os.Create(r.path)
	if err != nil {
		return err
	}
	var b []byte
	for i := uint64(0); i < r.count; i++ {
		b = strconv.AppendUint(b[:0], i, 10)
		b = append(b, '\n')
		if _, err := f.Write(b); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

func fileWriteRepeat(r *request) error {
	f, err := os.Create(r.path)
	if err != nil {
		return err
	}
	line := []byte(r.line)
	for i := uint64(0); i < r.count; i++ {
		if _, err := f.Write(line); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

func fileWriteLines(r *request) error {
	f, err := os.Create(r.path)
	if err != nil {
		return err
	}
	var b []byte
	for i := uint64(0); i < r.count; i++ {
		b = append(b[:0], r.prefix...)
		b = strconv.AppendUint(b, i, 10)
		b = append(b, r.suffix...)
		if _, err := f.Write(b); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// newWriter is bufio.NewWriter (4096 bytes), or NewWriterSize at the run's buffer size.
func newWriter(f *os.File, size int) *bufio.Writer {
	if size > 0 {
		return bufio.NewWriterSize(f, size)
	}
	return bufio.NewWriter(f)
}

// buffered creates the file, hands write a bufio.Writer on it, flushes and closes.
func buffered(r *request, write func(w *bufio.Writer) error) error {
	f, err := os.Create(r.path)
	if err != nil {
		return err
	}
	w := newWriter(f, r.buffer)
	if err := write(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// bufio.Writer keeps the first error and returns it from every later call
// and from Flush: the loops need not check each call.

func bufioInts(r *request) error {
	return buffered(r, func(w *bufio.Writer) error {
		var b []byte
		for i := int64(0); i < int64(r.count); i++ {
			b = strconv.AppendInt(b[:0], i, 10)
			b = append(b, '\n')
			w.Write(b)
		}
		return nil
	})
}

func bufioRepeat(r *request) error {
	return buffered(r, func(w *bufio.Writer) error {
		for i := uint64(0); i < r.count; i++ {
			w.WriteString(r.line)
		}
		return nil
	})
}

func bufioLines(r *request) error {
	return buffered(r, func(w *bufio.Writer) error {
		var b []byte
		for i := int64(0); i < int64(r.count); i++ {
			w.WriteString(r.prefix)
			b = strconv.AppendInt(b[:0], i, 10)
			w.Write(b)
			w.WriteString(r.suffix)
		}
		return nil
	})
}

func bufioDoubles(r *request) error {
	return buffered(r, func(w *bufio.Writer) error {
		var b []byte
		for _, v := range r.values {
			b = strconv.AppendFloat(b[:0], v, 'g', -1, 64)
			b = append(b, '\n')
			w.Write(b)
		}
		return nil
	})
}

func fprintfInts(r *request) error {
	return buffered(r, func(w *bufio.Writer) error {
		for i := int64(0); i < int64(r.count); i++ {
			fmt.Fprintf(w, "%d\n", i)
		}
		return nil
	})
}

func fprintlnRepeat(r *request) error {
	text := strings.TrimSuffix(r.line, "\n")
	return buffered(r, func(w *bufio.Writer) error {
		for i := uint64(0); i < r.count; i++ {
			fmt.Fprintln(w, text)
		}
		return nil
	})
}

func fprintfLines(r *request) error {
	format := r.prefix + "%d" + r.suffix // neither part holds a '%' (docs/external-methods.md)
	return buffered(r, func(w *bufio.Writer) error {
		for i := int64(0); i < int64(r.count); i++ {
			fmt.Fprintf(w, format, i)
		}
		return nil
	})
}

// fprintlnDoubles: %v of a float64 is the shortest text that reads back exactly.
func fprintlnDoubles(r *request) error {
	return buffered(r, func(w *bufio.Writer) error {
		for _, v := range r.values {
			fmt.Fprintln(w, v)
		}
		return nil
	})
}

// writeAll creates the file, writes b with one Write and closes it.
func writeAll(path string, b []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func appendIntInts(r *request) error {
	var b []byte
	for i := int64(0); i < int64(r.count); i++ {
		b = strconv.AppendInt(b, i, 10)
		b = append(b, '\n')
	}
	return writeAll(r.path, b)
}

func appendIntLines(r *request) error {
	var b []byte
	for i := int64(0); i < int64(r.count); i++ {
		b = append(b, r.prefix...)
		b = strconv.AppendInt(b, i, 10)
		b = append(b, r.suffix...)
	}
	return writeAll(r.path, b)
}

// seedUnbuffered is the seed's writeUnbuffered with the workload's text and
// count, and its errors checked.
func seedUnbuffered(r *request) error {
	format := r.prefix + "%d" + r.suffix
	f, err := os.Create(r.path)
	if err != nil {
		return err
	}
	for i := 0; i < int(r.count); i++ {
		data := fmt.Sprintf(format, i)
		if _, err := f.Write([]byte(data)); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// seedBuffered is the seed's writeBuffered likewise (bufio.NewWriter: 4096 bytes).
func seedBuffered(r *request) error {
	format := r.prefix + "%d" + r.suffix
	f, err := os.Create(r.path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for i := 0; i < int(r.count); i++ {
		data := fmt.Sprintf(format, i)
		w.WriteString(data)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// --- input --------------------------------------------------------------

func scannerInts(r *request) ([]uint64, error) {
	f, err := os.Open(r.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	if r.buffer > 0 {
		most := bufio.MaxScanTokenSize
		if r.buffer > most {
			most = r.buffer
		}
		s.Buffer(make([]byte, r.buffer), most)
	}
	values := r.ints[:0]
	for s.Scan() {
		v, err := strconv.ParseUint(s.Text(), 10, 64)
		if err != nil {
			return nil, err
		}
		values = append(values, v)
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	return values, f.Close()
}

func fscanInts(r *request) ([]uint64, error) {
	f, err := os.Open(r.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var in *bufio.Reader
	if r.buffer > 0 {
		in = bufio.NewReaderSize(f, r.buffer)
	} else {
		in = bufio.NewReader(f)
	}
	values := r.ints[:0]
	for {
		var v uint64
		if _, err := fmt.Fscan(in, &v); err != nil {
			if err == io.EOF {
				break
			}
			return nil, err
		}
		values = append(values, v)
	}
	return values, f.Close()
}

// checksum is the protocol's checksum of parsed values: the sum of (i+1)*v[i]
// modulo 2^64.
func checksum(values []uint64) uint64 {
	var sum uint64
	for i, v := range values {
		sum += uint64(i+1) * v
	}
	return sum
}

// --- the protocol -------------------------------------------------------

func fail(err error) {
	fmt.Fprintln(os.Stderr, "iobench-go:", err)
	os.Exit(1)
}

func list() {
	names := make([]string, 0, len(methods))
	for name := range methods {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		m := methods[name]
		ops := make([]string, 0, len(m.outputs)+1)
		for op := range m.outputs {
			ops = append(ops, op)
		}
		if m.input != nil {
			ops = append(ops, "get_ints")
		}
		sort.Strings(ops)
		fmt.Println(name, strings.Join(ops, " "))
	}
}

// readDoubles reads count little-endian binary64 values from path.
func readDoubles(path string, count uint64) ([]float64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if uint64(len(data)) != count*8 {
		return nil, fmt.Errorf("%s: %d bytes, expected %d doubles", path, len(data), count)
	}
	values := make([]float64, count)
	for i := range values {
		values[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return values, nil
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--list" {
		list()
		return
	}
	if len(os.Args) < 6 {
		fail(errors.New("usage: iobench-go METHOD OPERATION PATH COUNT BUFFER_SIZE [ARGUMENT...] | --list"))
	}
	name, op, args := os.Args[1], os.Args[2], os.Args[6:]
	m, ok := methods[name]
	if !ok {
		fail(fmt.Errorf("unknown method %q", name))
	}
	count, err := strconv.ParseUint(os.Args[4], 10, 64)
	if err != nil {
		fail(fmt.Errorf("COUNT %q: %v", os.Args[4], err))
	}
	buffer, err := strconv.Atoi(os.Args[5])
	if err != nil || buffer < 0 {
		fail(fmt.Errorf("BUFFER_SIZE %q: not a size", os.Args[5]))
	}
	r := &request{path: os.Args[3], count: count, buffer: buffer}
	want := map[string]int{"put_ints": 0, "put_repeat": 1, "put_lines": 2, "put_doubles": 1, "get_ints": 0}
	if n, known := want[op]; !known || len(args) != n {
		fail(fmt.Errorf("operation %q with %d arguments: not an operation of the protocol", op, len(args)))
	}
	out, isOutput := m.outputs[op]
	if !isOutput && (op != "get_ints" || m.input == nil) {
		fail(fmt.Errorf("method %s has no operation %s", name, op))
	}
	switch op {
	case "put_repeat":
		r.line = args[0]
	case "put_lines":
		r.prefix, r.suffix = args[0], args[1]
	case "put_doubles":
		if r.values, err = readDoubles(args[0], count); err != nil {
			fail(err)
		}
	case "get_ints":
		// Every page written once now, not in the first run (as iobench does
		// for its own methods' vectors).
		r.ints = make([]uint64, count)
		for i := range r.ints {
			r.ints[i] = 1
		}
	}

	var parsed []uint64 // get_ints: the values of the last run
	requests := bufio.NewReader(os.Stdin)
	fmt.Fprintln(os.Stdout, "ready")
	for {
		line, err := requests.ReadString('\n')
		if err == io.EOF && line == "" {
			return
		}
		if err != nil && err != io.EOF {
			fail(err)
		}
		switch strings.TrimSpace(line) {
		case "ping":
			fmt.Fprintln(os.Stdout, "pong")
		case "run":
			start := time.Now()
			if isOutput {
				if err := out(r); err != nil {
					fail(err)
				}
			} else {
				if parsed, err = m.input(r); err != nil {
					fail(err)
				}
			}
			elapsed := time.Since(start)
			fmt.Fprintf(os.Stdout, "%d\n", elapsed.Nanoseconds())
		case "check":
			if isOutput {
				fail(errors.New("\"check\" is for get_ints"))
			}
			fmt.Fprintf(os.Stdout, "%d %d\n", len(parsed), checksum(parsed))
		default:
			fail(fmt.Errorf("unknown request %q", strings.TrimSpace(line)))
		}
	}
}
