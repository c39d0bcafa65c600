// Grows a sandbox data file to many receipts by copying one receipt that the sandbox itself made
// through its API, with its audit entries: far faster than posting each one, and every field
// other than the id, record number and serial number is the sandbox's own.
import { numberedReceiptBody } from '@boundbook/test-fixtures';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Rewrites `file` (a stopped sandbox's data file, format 1 or 2) so that the account of receipt
 * `templateId` holds `count` receipts: the template and `count - 1` copies numbered after it,
 * serial numbers as {@link numberedReceiptBody} gives them (the template being number 1).
 * Throws a `TypeError` when the file is not in the layout this relies on, so that the caller
 * can seed through the API instead.
 */
export async function extendDataFile(file, { templateId, count }) {
  // The journal beside the data file continues the snapshot's version: a snapshot rewritten
  // under it would be out of step. A sandbox stopped cleanly leaves none.
  const journal = await journalBytes(file);
  if (journal > 0) {
    throw new TypeError(`${file} has a journal of ${journal} bytes beside it (the sandbox was not stopped cleanly)`);
  }
  let snapshot;
  try {
    snapshot = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new TypeError(`${file} is not one JSON document (${error.message})`);
  }
  const { sequences, receipts, audit } = snapshot;
  if ((snapshot.format !== 1 && snapshot.format !== 2) || !Array.isArray(receipts) || !Array.isArray(audit) || typeof sequences?.receipt !== 'number' || typeof sequences?.audit !== 'number') {
    throw new TypeError(`${file} is not a data file of format 1 or 2 with receipts, audit and sequences`);
  }
  const template = receipts.find((receipt) => receipt.id === templateId);
  const trail = audit.filter((entry) => entry.receipt_id === templateId);
  const serial = numberedReceiptBody(1).serial_number;
  if (template?.serial_number !== serial || typeof template.record !== 'number' || trail.length === 0) {
    throw new TypeError(`${file} holds no receipt ${templateId} with serial ${serial}, a record number and an audit trail`);
  }

  // Copies are written as lines; the serial number is swapped in the serialised text so that
  // it changes in the audit entries' `changes` too.
  const quotedSerial = JSON.stringify(serial);
  const copies = { receipts: [], audit: [] };
  for (let n = 2; n <= count; n++) {
    const id = ++sequences.receipt;
    const quoted = JSON.stringify(numberedReceiptBody(n).serial_number);
    copies.receipts.push(JSON.stringify({ ...template, id, record: template.record + n - 1 }).replaceAll(quotedSerial, quoted));
    for (const entry of trail) {
      copies.audit.push(JSON.stringify({ ...entry, id: ++sequences.audit, receipt_id: id }).replaceAll(quotedSerial, quoted));
    }
  }
  // Books keep the last record number they gave, which the copies move on.
  for (const book of snapshot.books ?? []) {
    if (book.account_id === template.user_id && book.name === template.book && 'last_record' in book) {
      book.last_record = template.record + count - 1;
    }
  }
  if (typeof snapshot.version === 'number') snapshot.version += count - 1;
  await writeSnapshot(file, snapshot, copies);
}

/** Bytes in the journal segments (`NAME.journal.N`) beside the data file `file`. */
async function journalBytes(file) {
  const prefix = `${basename(file)}.journal.`;
  let bytes = 0;
  for (const name of await readdir(dirname(file))) {
    if (name.startsWith(prefix)) bytes += (await stat(join(dirname(file), name))).size;
  }
  return bytes;
}

/**
 * Writes the snapshot in the sandbox's own layout (one record per line, see the sandbox's
 * persistence/data-file.ts), with `extra[key]`, serialised records, appended to array `key`.
 */
async function writeSnapshot(file, snapshot, extra) {
  const handle = await open(file, 'w');
  try {
    const members = [];
    for (const [key, value] of Object.entries(snapshot)) {
      const lines = Array.isArray(value) ? [...value.map((record) => JSON.stringify(record)), ...(extra[key] ?? [])] : null;
      members.push({ key, value, lines });
    }
    await handle.write('{\n');
    for (const [index, { key, value, lines }] of members.entries()) {
      const separator = index < members.length - 1 ? ',\n' : '\n';
      if (!lines?.length) {
        await handle.write(`${JSON.stringify(key)}: ${JSON.stringify(value)}${separator}`);
        continue;
      }
      await handle.write(`${JSON.stringify(key)}: [\n`);
      for (let start = 0; start < lines.length; start += 10_000) {
        const last = start + 10_000 >= lines.length;
        await handle.write(lines.slice(start, start + 10_000).join(',\n') + (last ? '\n' : ',\n'));
      }
      await handle.write(`]${separator}`);
    }
    await handle.write('}\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
}
