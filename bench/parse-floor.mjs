// The floor of opening a data file of many receipts: each receipt's line parsed with JSON.parse and
// the object kept, nothing else (no check, no index, no audit trail), the file read a mebibyte at
// a time as the sandbox reads it. Holding every receipt as a JavaScript object costs at least
// this on the machine, whatever the sandbox does around it. Prints one line of JSON:
// `{ "receipts", "ms", "cpuMs", "maxRssBytes" }`.
//   node parse-floor.mjs DATA_FILE
import { open } from 'node:fs/promises';

const [file] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: node parse-floor.mjs DATA_FILE');
  process.exit(2);
}

const began = performance.now();
const cpuBefore = process.cpuUsage();
const receipts = [];
let inReceipts = false;
const handle = await open(file, 'r');
try {
  const buffer = Buffer.allocUnsafe(1 << 20);
  let pending = [];
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      const line =
        pending.length === 0
          ? chunk.toString('utf8', start, end)
          : Buffer.concat([...pending, chunk.subarray(start, end)]).toString('utf8');
      pending = [];
      take(line);
      start = end + 1;
    }
    // The rest of the chunk is copied: the buffer is read into again.
    if (start < bytesRead) pending.push(Buffer.from(chunk.subarray(start)));
  }
} finally {
  await handle.close();
}
const { user, system } = process.cpuUsage(cpuBefore);
console.log(
  JSON.stringify({
    receipts: receipts.length,
    ms: Math.round(performance.now() - began),
    cpuMs: Math.round((user + system) / 1000),
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  }),
);

/** One line of the data file's layout (encodeSnapshot's): a receipt of the `receipts` member is parsed and kept. */
function take(line) {
  if (!inReceipts) {
    inReceipts = line === '"receipts": [';
    return;
  }
  if (line.startsWith(']')) {
    inReceipts = false;
    return;
  }
  receipts.push(JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line));
}
