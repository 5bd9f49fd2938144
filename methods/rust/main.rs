// iobench's Rust methods: a program that performs the runs of one benchmark
// as Rust's users write them, following the protocol of
// docs/external-methods.md:
//
//     iobench-rust METHOD OPERATION PATH COUNT BUFFER_SIZE [ARGUMENT...]
//     iobench-rust --list
//
// It prints "ready" once set up, then answers each line "run" on its standard
// input with one run (open, write or read everything, close), timed with
// std::time::Instant (monotonic), and the line "<ns>"; after a get_ints run,
// "check" with "<count> <checksum>" of the values it parsed; "ping" with
// "pong"; end of input ends it. An error is one line on standard error and exit status 1.
//
// The standard library only (no crate), built with `rustc -C opt-level=3`,
// the optimisation `cargo build --release` uses.
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::time::Instant;

/// What a run is asked to do (the command line), plus what the setup
/// prepared outside the timed runs.
struct Request {
    path: String,
    count: u64,
    buffer: usize,    // user-space buffer in bytes; 0: the method's default
    line: String,     // put_repeat: the line, with its '\n'
    prefix: String,   // put_lines: text before the number
    suffix: String,   // put_lines: text after it, with the '\n'
    values: Vec<f64>, // put_doubles: the values
    ints: Vec<u64>,   // get_ints: room for count values, touched once
}

type Output = fn(&Request) -> io::Result<()>;
type Input = fn(&mut Request) -> io::Result<()>;

enum Op {
    Out(Output),
    In(Input),
}

/// Every method and its operations: (method, operation, function).
fn table() -> Vec<(&'static str, &'static str, Op)> {
    vec![
        // File::write_all per line: one write(2) per line, no buffer.
        ("rust_File.write_all", "put_ints", Op::Out(file_ints)),
        ("rust_File.write_all", "put_repeat", Op::Out(file_repeat)),
        ("rust_File.write_all", "put_lines", Op::Out(file_lines)),
        // BufWriter (8 KiB unless sized) with writeln!/write!, write_all for text.
        ("rust_BufWriter_writeln", "put_ints", Op::Out(writeln_ints)),
        ("rust_BufWriter_writeln", "put_repeat", Op::Out(buf_repeat)),
        ("rust_BufWriter_writeln", "put_lines", Op::Out(writeln_lines)),
        ("rust_BufWriter_writeln", "put_doubles", Op::Out(writeln_doubles)),
        // BufWriter with the digits formatted by hand into a Vec<u8> (no itoa crate).
        ("rust_BufWriter_manual", "put_ints", Op::Out(manual_ints)),
        ("rust_BufWriter_manual", "put_lines", Op::Out(manual_lines)),
        // BufReader::lines and str::parse.
        ("rust_BufReader.lines", "get_ints", Op::In(lines_ints)),
        // std::fs::read of the whole file, split on b'\n', digits parsed by hand.
        ("rust_fs.read_split", "get_ints", Op::In(read_split_ints)),
    ]
}

// --- output ----------------------------------------------------------------

fn file_ints(r: &Request) -> io::Result<()> {
    let mut f = File::create(&r.path)?;
    let mut line = Vec::with_capacity(24);
    for i in 0..r.count {
        line.clear();
        writeln!(line, "{}", i)?;
        f.write_all(&line)?;
    }
    Ok(())
}

fn file_repeat(r: &Request) -> io::Result<()> {
    let mut f = File::create(&r.path)?;
    for _ in 0..r.count {
        f.write_all(r.line.as_bytes())?;
    }
    Ok(())
}

fn file_lines(r: &Request) -> io::Result<()> {
    let mut f = File::create(&r.path)?;
    let mut line = Vec::with_capacity(r.prefix.len() + r.suffix.len() + 20);
    for i in 0..r.count {
        line.clear();
        write!(line, "{}{}{}", r.prefix, i, r.suffix)?;
        f.write_all(&line)?;
    }
    Ok(())
}

/// BufWriter::new (8 KiB), or with_capacity at the run's buffer size.
fn writer(r: &Request) -> io::Result<BufWriter<File>> {
    let f = File::create(&r.path)?;
    Ok(if r.buffer > 0 { BufWriter::with_capacity(r.buffer, f) } else { BufWriter::new(f) })
}

/// Flushes `w` (into_inner reports what a flush on drop would hide) and closes the file.
fn finish(w: BufWriter<File>) -> io::Result<()> {
    w.into_inner().map_err(|e| e.into_error())?;
    Ok(())
}

fn writeln_ints(r: &Request) -> io::Result<()> {
    let mut w = writer(r)?;
    for i in 0..r.count {
        writeln!(w, "{}", i)?;
    }
    finish(w)
}

fn buf_repeat(r: &Request) -> io::Result<()> {
    let mut w = writer(r)?;
    for _ in 0..r.count {
        w.write_all(r.line.as_bytes())?;
    }
    finish(w)
}

fn writeln_lines(r: &Request) -> io::Result<()> {
    let mut w = writer(r)?;
    for i in 0..r.count {
        write!(w, "{}{}{}", r.prefix, i, r.suffix)?;
    }
    finish(w)
}

/// `{:?}`: the shortest digits that read back exactly, in exponent form for
/// very large and very small magnitudes. (`{}` never uses an exponent: up to
/// 309 digits for these values, a text ten times the size.)
fn writeln_doubles(r: &Request) -> io::Result<()> {
    let mut w = writer(r)?;
    for v in &r.values {
        writeln!(w, "{:?}", v)?;
    }
    finish(w)
}

/// Appends the decimal digits of `v` to `out`.
fn push_digits(out: &mut Vec<u8>, mut v: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

fn manual_ints(r: &Request) -> io::Result<()> {
    let mut w = writer(r)?;
    let mut line = Vec::with_capacity(24);
    for i in 0..r.count {
        line.clear();
        push_digits(&mut line, i);
        line.push(b'\n');
        w.write_all(&line)?;
    }
    finish(w)
}

fn manual_lines(r: &Request) -> io::Result<()> {
    let mut w = writer(r)?;
    let mut line = Vec::with_capacity(r.prefix.len() + r.suffix.len() + 20);
    for i in 0..r.count {
        line.clear();
        line.extend_from_slice(r.prefix.as_bytes());
        push_digits(&mut line, i);
        line.extend_from_slice(r.suffix.as_bytes());
        w.write_all(&line)?;
    }
    finish(w)
}

// --- input -----------------------------------------------------------------

fn invalid(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

fn lines_ints(r: &mut Request) -> io::Result<()> {
    let f = File::open(&r.path)?;
    let reader = if r.buffer > 0 { BufReader::with_capacity(r.buffer, f) } else { BufReader::new(f) };
    r.ints.clear();
    for line in reader.lines() {
        let line = line?;
        r.ints.push(line.parse::<u64>().map_err(|e| invalid(format!("{:?}: {}", line, e)))?);
    }
    Ok(())
}

fn read_split_ints(r: &mut Request) -> io::Result<()> {
    let data = std::fs::read(&r.path)?;
    r.ints.clear();
    for part in data.split(|&b| b == b'\n') {
        if part.is_empty() {
            continue; // after the last '\n'
        }
        let mut v: u64 = 0;
        for &b in part {
            if !b.is_ascii_digit() {
                return Err(invalid(format!("not a digit: {:?}", b as char)));
            }
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(b - b'0')))
                .ok_or_else(|| invalid("a value beyond 2^64".to_string()))?;
        }
        r.ints.push(v);
    }
    Ok(())
}

/// The protocol's checksum of parsed values: the sum of (i+1)*v[i] modulo 2^64.
fn checksum(values: &[u64]) -> u64 {
    values
        .iter()
        .enumerate()
        .fold(0u64, |sum, (i, &v)| sum.wrapping_add((i as u64 + 1).wrapping_mul(v)))
}

// --- the protocol ----------------------------------------------------------

fn fail(message: &str) -> ! {
    eprintln!("iobench-rust: {}", message);
    std::process::exit(1);
}

fn read_doubles(path: &str, count: u64) -> io::Result<Vec<f64>> {
    let mut data = Vec::new();
    File::open(path)?.read_to_end(&mut data)?;
    if data.len() as u64 != count * 8 {
        return Err(invalid(format!("{}: {} bytes, expected {} doubles", path, data.len(), count)));
    }
    Ok(data.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 2 && args[1] == "--list" {
        let mut rows: Vec<(&str, &str)> = table().iter().map(|(m, o, _)| (*m, *o)).collect();
        rows.sort();
        let mut names: Vec<&str> = rows.iter().map(|(m, _)| *m).collect();
        names.dedup();
        for name in names {
            let ops: Vec<&str> = rows.iter().filter(|(m, _)| *m == name).map(|(_, o)| *o).collect();
            println!("{} {}", name, ops.join(" "));
        }
        return;
    }
    if args.len() < 6 {
        fail("usage: iobench-rust METHOD OPERATION PATH COUNT BUFFER_SIZE [ARGUMENT...] | --list");
    }
    let (name, op, extra) = (args[1].as_str(), args[2].as_str(), &args[6..]);
    let count: u64 = args[4].parse().unwrap_or_else(|_| fail(&format!("COUNT {:?}: not a count", args[4])));
    let buffer: usize = args[5].parse().unwrap_or_else(|_| fail(&format!("BUFFER_SIZE {:?}: not a size", args[5])));
    let wanted = match op {
        "put_ints" | "get_ints" => 0,
        "put_repeat" | "put_doubles" => 1,
        "put_lines" => 2,
        _ => usize::MAX,
    };
    if wanted != extra.len() {
        fail(&format!("operation {:?} with {} arguments: not an operation of the protocol", op, extra.len()));
    }
    if !table().iter().any(|(m, _, _)| *m == name) {
        fail(&format!("unknown method {:?}", name));
    }
    let function = table()
        .into_iter()
        .find(|(m, o, _)| *m == name && *o == op)
        .map(|(_, _, f)| f)
        .unwrap_or_else(|| fail(&format!("method {} has no operation {}", name, op)));
    let mut r = Request {
        path: args[3].clone(),
        count,
        buffer,
        line: String::new(),
        prefix: String::new(),
        suffix: String::new(),
        values: Vec::new(),
        ints: Vec::new(),
    };
    match op {
        "put_repeat" => r.line = extra[0].clone(),
        "put_lines" => {
            r.prefix = extra[0].clone();
            r.suffix = extra[1].clone();
        }
        "put_doubles" => r.values = read_doubles(&extra[0], count).unwrap_or_else(|e| fail(&e.to_string())),
        "get_ints" => {
            // Every page written once now, not in the first run.
            r.ints = vec![1u64; count as usize];
            r.ints.clear();
        }
        _ => {}
    }

    let mut out = io::stdout().lock();
    let mut requests = io::stdin().lock();
    let mut reply = |text: String| {
        // One write per reply: the line is complete before it is flushed.
        out.write_all(text.as_bytes()).and_then(|_| out.flush()).unwrap_or_else(|e| fail(&e.to_string()));
    };
    reply("ready\n".to_string());
    let mut line = String::new();
    loop {
        line.clear();
        if requests.read_line(&mut line).unwrap_or_else(|e| fail(&e.to_string())) == 0 {
            return;
        }
        match line.trim() {
            "ping" => reply("pong\n".to_string()),
            "run" => {
                let start = Instant::now();
                match function {
                    Op::Out(put) => {
                        put(&r).unwrap_or_else(|e| fail(&format!("{}: {}", r.path, e)));
                        let ns = start.elapsed().as_nanos();
                        reply(format!("{}\n", ns));
                    }
                    Op::In(get) => {
                        get(&mut r).unwrap_or_else(|e| fail(&format!("{}: {}", r.path, e)));
                        let ns = start.elapsed().as_nanos();
                        reply(format!("{}\n", ns));
                    }
                }
            }
            "check" => match function {
                Op::In(_) => reply(format!("{} {}\n", r.ints.len(), checksum(&r.ints))),
                Op::Out(_) => fail("\"check\" is for get_ints"),
            },
            other => fail(&format!("unknown request {:?}", other)),
        }
    }
}
