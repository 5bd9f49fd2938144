#!/usr/bin/env node
// iobench's Node.js methods: a program that performs the runs of one
// benchmark as Node's users write them, following the protocol of
// docs/external-methods.md:
//
//     node iobench_methods.js METHOD OPERATION PATH COUNT BUFFER_SIZE [ARGUMENT...]
//     node iobench_methods.js --list
//
// It prints "ready" once set up, then answers each line "run" on its standard
// input with one run (open, write everything, close), timed with
// process.hrtime.bigint() (monotonic), and the line "<ns>"; "ping" with
// "pong"; end of input ends it. An error is one line on standard error and
// exit status 1. Requests are read and answered with synchronous calls on
// descriptors 0 and 1; a run that uses a stream is awaited before the next
// request is read.
//
// Node's own modules only. Output operations only (no get_ints).
'use strict';

const fs = require('fs');
const { once } = require('events');

// --- fs.writeSync per line: one write(2) per line, no buffer ----------------

function writeSyncEach(r, text) {
  const fd = fs.openSync(r.path, 'w');
  try {
    for (let i = 0; i < r.count; i++) fs.writeSync(fd, text(i));
  } finally {
    fs.closeSync(fd);
  }
}

// --- a fs.WriteStream (highWaterMark 16 KiB unless sized), write() per line,
// waiting for 'drain' whenever write() returns false, then end() and 'close' --

async function streamEach(r, text) {
  const options = r.buffer > 0 ? { highWaterMark: r.buffer } : {};
  const stream = fs.createWriteStream(r.path, options);
  const closed = new Promise((resolve, reject) => {
    stream.on('close', resolve);
    stream.on('error', reject);
  });
  for (let i = 0; i < r.count; i++) {
    if (!stream.write(text(i))) await Promise.race([once(stream, 'drain'), closed]);
  }
  stream.end();
  await closed;
}

// --- one Buffer: the whole text made in memory, one fs.writeFileSync --------

function oneBuffer(r, text) {
  const parts = new Array(r.count);
  for (let i = 0; i < r.count; i++) parts[i] = text(i);
  fs.writeFileSync(r.path, Buffer.from(parts.join(''), 'latin1'));
}

/// The repeated line as one Buffer filled with it (a string of 1.2 GB is
/// beyond V8's longest string).
function oneBufferRepeat(r) {
  const line = Buffer.from(r.line, 'latin1');
  fs.writeFileSync(r.path, Buffer.alloc(line.length * r.count, line));
}

// The text of item i, per operation. String(v) of a number is the shortest
// text that reads back exactly ("1.2345e+307").
const TEXT = {
  put_ints: (r) => (i) => `${i}\n`,
  put_repeat: (r) => () => r.line,
  put_lines: (r) => (i) => `${r.prefix}${i}${r.suffix}`,
  put_doubles: (r) => (i) => `${r.values[i]}\n`,
};

const each = (style) => (op) => (r) => style(r, TEXT[op](r));

const METHODS = {
  'node_fs.writeSync': {
    put_ints: each(writeSyncEach)('put_ints'),
    put_repeat: each(writeSyncEach)('put_repeat'),
    put_lines: each(writeSyncEach)('put_lines'),
  },
  node_WriteStream: {
    put_ints: each(streamEach)('put_ints'),
    put_repeat: each(streamEach)('put_repeat'),
    put_lines: each(streamEach)('put_lines'),
    put_doubles: each(streamEach)('put_doubles'),
  },
  node_Buffer: {
    put_ints: each(oneBuffer)('put_ints'),
    put_repeat: oneBufferRepeat,
    put_lines: each(oneBuffer)('put_lines'),
    put_doubles: each(oneBuffer)('put_doubles'),
  },
};

const ARGUMENTS = { put_ints: 0, put_repeat: 1, put_doubles: 1, put_lines: 2 };

// --- the protocol --------------------------------------------------------

function fail(message) {
  process.stderr.write(`iobench-node: ${message}\n`);
  process.exit(1);
}

function reply(text) {
  fs.writeSync(1, `${text}\n`); // one write per reply
}

/// The next line of standard input without its '\n', or null at its end.
const pending = { text: '', buffer: Buffer.alloc(4096) };
function readRequest() {
  for (;;) {
    const nl = pending.text.indexOf('\n');
    if (nl >= 0) {
      const line = pending.text.slice(0, nl);
      pending.text = pending.text.slice(nl + 1);
      return line;
    }
    let n;
    try {
      n = fs.readSync(0, pending.buffer, 0, pending.buffer.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EOF') n = 0;
      else throw e;
    }
    if (n === 0) {
      if (pending.text === '') return null;
      const line = pending.text;
      pending.text = '';
      return line;
    }
    pending.text += pending.buffer.toString('utf8', 0, n);
  }
}

async function main(argv) {
  if (argv.length === 1 && argv[0] === '--list') {
    for (const name of Object.keys(METHODS).sort())
      console.log(`${name} ${Object.keys(METHODS[name]).sort().join(' ')}`);
    return;
  }
  if (argv.length < 5) fail('usage: iobench_methods.js METHOD OPERATION PATH COUNT BUFFER_SIZE [ARGUMENT...] | --list');
  const [name, op, path, countText, bufferText] = argv;
  const extra = argv.slice(5);
  const r = { path, count: Number(countText), buffer: Number(bufferText) };
  if (!Number.isSafeInteger(r.count) || r.count < 0 || !Number.isSafeInteger(r.buffer) || r.buffer < 0)
    fail(`COUNT ${countText} or BUFFER_SIZE ${bufferText}: not a number`);
  if (ARGUMENTS[op] !== extra.length)
    fail(`operation "${op}" with ${extra.length} arguments: not an operation of the protocol`);
  if (!(name in METHODS)) fail(`unknown method "${name}"`);
  const run = METHODS[name][op];
  if (!run) fail(`method ${name} has no operation ${op}`);
  if (op === 'put_repeat') r.line = extra[0];
  else if (op === 'put_lines') [r.prefix, r.suffix] = extra;
  else if (op === 'put_doubles') {
    const data = fs.readFileSync(extra[0]);
    if (data.length !== r.count * 8) fail(`${extra[0]}: ${data.length} bytes, expected ${r.count} doubles`);
    r.values = new Float64Array(r.count);
    for (let i = 0; i < r.count; i++) r.values[i] = data.readDoubleLE(8 * i);
  }

  reply('ready');
  for (let request; (request = readRequest()) !== null; ) {
    request = request.trim();
    if (request === 'ping') {
      reply('pong');
    } else if (request === 'run') {
      const start = process.hrtime.bigint();
      try {
        await run(r);
      } catch (e) {
        fail(`${r.path}: ${e.message}`);
      }
      reply(`${process.hrtime.bigint() - start}`);
    } else {
      fail(`unknown request "${request}"`);
    }
  }
}

main(process.argv.slice(2)).catch((e) => fail(e.stack || String(e)));
