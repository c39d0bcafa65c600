// Grows a sandbox data file to many receipts by copying one receipt that the sandbox itself made
// through its API, with its audit entries: far faster than posting each one, and every field
// other than the id, record number and serial number is the sandbox's own. The copies are
// written as they are made, a batch at a time, so that a million of them take a few seconds and
// little memory.
import { numberedReceiptBody } from '@fflkit/test-fixtures';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Copies serialised and written at a time. */
const BATCH = 10_000;

/**
 * Rewrites `file` (a stopped sandbox's data file, format 1 or 2) so that the account of receipt
 * `templateId` holds `count` receipts: the template and `count - 1` copies numbered after it,
 * serial numbers as {@link numberedReceiptBody} gives them (the template being number 1).
 * Throws a `TypeError` when the file is not in the layout this relies on, so that the caller
 * can seed through the API instead.
 */
export function extendDataFile(file, { templateId, count }) {
  return extendAccounts(file, [{ templateId, count }]);
}

/**
 * {@link extendDataFile} for many accounts at once, each `{ templateId, count }` naming one
 * receipt of its own account (made with serial number 1) to grow that account to `count`. The
 * copies take ids after the file's sequences, in the order given, so every list stays sorted by id.
 */
export async function extendAccounts(file, templates) {
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
  if (
    (snapshot.format !== 1 && snapshot.format !== 2) ||
    !Array.isArray(receipts) ||
    !Array.isArray(audit) ||
    typeof sequences?.receipt !== 'number' ||
    typeof sequences?.audit !== 'number'
  ) {
    throw new TypeError(`${file} is not a data file of format 1 or 2 with receipts, audit and sequences`);
  }
  const serial = numberedReceiptBody(1).serial_number;
  const receiptsById = new Map(receipts.map((receipt) => [receipt.id, receipt]));
  const trails = new Map();
  for (const entry of audit) trails.set(entry.receipt_id, [...(trails.get(entry.receipt_id) ?? []), entry]);
  // Each copy is its template's text with its id, record number and serial number (in the audit
  // entries' `changes` too) put in, as a list of text parts and the values between them.
  let nextReceipt = sequences.receipt + 1;
  let nextAudit = sequences.audit + 1;
  const plans = templates.map(({ templateId, count }) => {
    const template = receiptsById.get(templateId);
    const trail = trails.get(templateId) ?? [];
    if (template?.serial_number !== serial || typeof template.record !== 'number' || trail.length === 0) {
      throw new TypeError(
        `${file} holds no receipt ${templateId} with serial ${serial}, a record number and an audit trail`,
      );
    }
    const plan = {
      template,
      count,
      firstReceipt: nextReceipt,
      firstAudit: nextAudit,
      receiptText: textTemplate({ ...template, id: ID, record: RECORD }, serial),
      trailTexts: trail.map((entry) => textTemplate({ ...entry, id: AUDIT_ID, receipt_id: ID }, serial)),
    };
    nextReceipt += count - 1;
    nextAudit += (count - 1) * trail.length;
    return plan;
  });
  const copies = {
    receipts: function* () {
      for (const { template, count, firstReceipt, receiptText } of plans) {
        for (let n = 2; n <= count; n++) {
          yield receiptText({
            [ID]: firstReceipt + n - 2,
            [RECORD]: template.record + n - 1,
            [SERIAL]: numberedReceiptBody(n).serial_number,
          });
        }
      }
    },
    audit: function* () {
      for (const { count, firstReceipt, firstAudit, trailTexts } of plans) {
        for (let n = 2; n <= count; n++) {
          const values = { [ID]: firstReceipt + n - 2, [SERIAL]: numberedReceiptBody(n).serial_number };
          for (const [at, text] of trailTexts.entries())
            yield text({ ...values, [AUDIT_ID]: firstAudit + (n - 2) * trailTexts.length + at });
        }
      }
    },
  };
  const added = plans.reduce((sum, { count }) => sum + count - 1, 0);
  sequences.receipt = nextReceipt - 1;
  sequences.audit = nextAudit - 1;
  // Books keep the last record number they gave, which the copies move on.
  const lastRecords = new Map(
    plans.map(({ template, count }) => [`${template.user_id}:${template.book}`, template.record + count - 1]),
  );
  for (const book of snapshot.books ?? []) {
    const last = lastRecords.get(`${book.account_id}:${book.name}`);
    if (last !== undefined && 'last_record' in book) book.last_record = last;
  }
  if (typeof snapshot.version === 'number') snapshot.version += added;
  await writeSnapshot(file, snapshot, copies);
}

const ID = '\u0000id';
const RECORD = '\u0000record';
const AUDIT_ID = '\u0000audit';
const SERIAL = '\u0000serial';

/**
 * A function of placeholder values giving the JSON text of `record`, whose members hold the
 * placeholders (as strings) and whose string `serial` is the serial number to swap.
 */
function textTemplate(record, serial) {
  const names = [ID, RECORD, AUDIT_ID, SERIAL];
  let text = JSON.stringify(record).replaceAll(JSON.stringify(serial), JSON.stringify(SERIAL));
  const parts = [];
  const slots = [];
  for (;;) {
    let next = -1;
    let name;
    for (const candidate of names) {
      const at = text.indexOf(JSON.stringify(candidate));
      if (at !== -1 && (next === -1 || at < next)) [next, name] = [at, candidate];
    }
    if (next === -1) break;
    parts.push(text.slice(0, next));
    slots.push(name);
    text = text.slice(next + JSON.stringify(name).length);
  }
  parts.push(text);
  return (values) => {
    let out = parts[0];
    for (let at = 0; at < slots.length; at++) {
      const value = values[slots[at]];
      out += (typeof value === 'string' ? JSON.stringify(value) : String(value)) + parts[at + 1];
    }
    return out;
  };
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
 * persistence/data-file.ts), with the serialised records of `extra[key]()` appended to array
 * `key`, a batch at a time.
 */
async function writeSnapshot(file, snapshot, extra) {
  const handle = await open(file, 'w');
  try {
    const entries = Object.entries(snapshot);
    await handle.write('{\n');
    for (const [index, [key, value]] of entries.entries()) {
      const separator = index < entries.length - 1 ? ',\n' : '\n';
      if (!Array.isArray(value) || (value.length === 0 && extra[key] === undefined)) {
        await handle.write(`${JSON.stringify(key)}: ${JSON.stringify(value)}${separator}`);
        continue;
      }
      await handle.write(`${JSON.stringify(key)}: [\n`);
      let batch = [];
      let first = true;
      const flush = async () => {
        await handle.write(`${first ? '' : ',\n'}${batch.join(',\n')}`);
        first = false;
        batch = [];
      };
      for (const line of recordLines(value, extra[key])) {
        batch.push(line);
        if (batch.length === BATCH) await flush();
      }
      if (batch.length) await flush();
      await handle.write(`\n]${separator}`);
    }
    await handle.write('}\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The serialised records of a collection, then those its copies add. */
function* recordLines(records, copies) {
  for (const record of records) yield JSON.stringify(record);
  if (copies !== undefined) yield* copies();
}
