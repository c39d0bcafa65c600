import type { AuditEntry, Receipt, SandboxToken } from '@fflkit/types';
import { details, h, table } from '../elements';
import { formatAddress, formatAmount, formatTime, formatValue } from '../formats';
import { ConsoleApiError } from '../control-api';
import { errorAlert, heading, type PageContext } from '../page';
import { keyName } from './api-keys';
import { lastBookAddress } from './book';

// One receipt as its line of the bound book and everything behind it: the firearm, its receipt,
// its disposition, its documents, its E4473 data, and its audit trail as field changes
// (GET /_sandbox/receipts/{id} and its /audit, control calls that spend no rate limit).

/** Draws the page of the receipt whose id is in the address. */
export async function showReceipt(view: HTMLElement, context: PageContext): Promise<void> {
  const back = h('p', {}, h('a', { href: lastBookAddress() }, 'Back to the bound book'));
  let receipt: Receipt;
  let audit: AuditEntry[];
  let tokens: SandboxToken[];
  const id = Number(context.id);
  try {
    if (!/^\d+$/.test(context.id)) throw new ConsoleApiError(404, 'Record not found.');
    [{ data: receipt }, { data: audit }, { data: tokens }] = await Promise.all([
      context.api.call('get', '/_sandbox/receipts/{id}', { path: { id } }),
      context.api.call('get', '/_sandbox/receipts/{id}/audit', { path: { id } }),
      context.api.call('get', '/_sandbox/tokens'),
    ]);
  } catch (error) {
    view.append(heading('Receipt'), back, errorAlert(error));
    return;
  }
  const disposition = receipt.disposition;
  const e4473 = receipt.e4473;
  view.append(
    heading(`Record ${receipt.record} of ${receipt.book}`),
    back,
    h(
      'p',
      { class: 'lede' },
      `${receipt.manufacturer} ${receipt.model}, serial number ${receipt.serial_number}: `,
      h('strong', {}, receipt.status === 'disposed' ? 'disposed' : 'on hand'),
      '.',
    ),
    h(
      'div',
      { class: 'columns' },
      section(
        'Firearm',
        details([
          ['Manufacturer', receipt.manufacturer],
          ['Importer', receipt.importer],
          ['Country of origin', receipt.country_of_origin],
          ['Model', receipt.model],
          ['Serial number', receipt.serial_number],
          ['Type', receipt.type],
          ['Caliber or gauge', receipt.caliber],
        ]),
      ),
      section(
        'Receipt',
        details([
          ['Date of receipt', receipt.receipt_date],
          ['Received from', receipt.received_from],
          ['Address', formatAddress(receipt)],
          ['License no.', receipt.ffl_license],
          ['Purchase amount', formatAmount(receipt.purchase_amount)],
          ['Recorded', formatTime(receipt.created_at)],
          ['Last changed', formatTime(receipt.updated_at)],
        ]),
      ),
      section(
        'Disposition',
        disposition === null
          ? h('p', { class: 'muted' }, 'Not disposed: the firearm is on hand.')
          : details([
              ['Date of disposition', disposition.disposition_date],
              ['Disposed to', disposition.disposed_to],
              ['Address', formatAddress(disposition)],
              ['Form 4473 serial no.', disposition.form_4473_serial],
              ['Sold price', formatAmount(disposition.sold_price)],
              ['NICS or CCW', disposition.nics_ccw],
            ]),
      ),
      section(
        'E4473 data',
        e4473 === null
          ? h('p', { class: 'muted' }, 'No E4473 data.')
          : details([
              ['Form 4473 serial no.', e4473.form_4473_serial],
              ['Transferee', e4473.transferee_name],
              ['NICS transaction no.', e4473.nics_transaction_number],
              ['NICS result', e4473.nics_result],
              ['Completed', formatTime(e4473.completed_at)],
            ]),
      ),
    ),
    section(
      'Documents',
      receipt.documents.length === 0
        ? h('p', { class: 'muted' }, 'No documents.')
        : h(
            'ul',
            {},
            receipt.documents.map((document) =>
              h(
                'li',
                {},
                h('a', { href: document.url, rel: 'noreferrer' }, document.name),
                ` (${document.mime_type}, ${document.size.toLocaleString('en-US')} bytes, ${formatTime(document.created_at)})`,
              ),
            ),
          ),
    ),
    section(
      'Audit trail',
      table(
        'Audit trail, oldest first',
        ['When', 'Action', 'Key', 'Changes'],
        audit.map((entry) =>
          h(
            'tr',
            {},
            h('td', {}, formatTime(entry.occurred_at)),
            h('td', {}, entry.action),
            h('td', {}, keyOf(entry.token_id, tokens)),
            h(
              'td',
              {},
              h(
                'ul',
                { class: 'changes' },
                Object.entries(entry.changes).map(([name, change]) => describeChange(name, change.from, change.to)),
              ),
            ),
          ),
        ),
        'No audit entries.',
      ),
    ),
  );
}

/** The key that made a change, by its name; one revoked since is no longer listed. */
function keyOf(id: number | null, tokens: readonly SandboxToken[]): string {
  if (id === null) return 'none';
  const token = tokens.find((candidate) => candidate.id === id);
  return token === undefined ? 'a key revoked since' : keyName(token);
}

/**
 * One change of an audit entry as a person reads it: a field's old and new value; a record held
 * in a field (a disposition) as its own fields, each with its label: those it was given when it
 * was recorded or removed, those that changed when it was corrected.
 */
function describeChange(name: string, from: unknown, to: unknown): HTMLLIElement {
  const record = (value: unknown): Record<string, unknown> | undefined =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  const before = record(from);
  const after = record(to);
  if (before === undefined && after === undefined) {
    return h('li', {}, h('code', {}, name), `: ${formatValue(from)} to ${formatValue(to)}`);
  }
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter(
    (field) => field !== 'created_at',
  );
  const what = before === undefined ? 'recorded' : after === undefined ? 'removed' : 'corrected';
  const lines =
    what === 'corrected'
      ? fields
          .filter((field) => formatValue(before?.[field]) !== formatValue(after?.[field]))
          .map((field) => `${labelOf(field)}: ${formatValue(before?.[field])} to ${formatValue(after?.[field])}`)
      : fields
          .filter((field) => (after ?? before)?.[field] !== null && (after ?? before)?.[field] !== undefined)
          .map((field) => `${labelOf(field)}: ${formatValue((after ?? before)?.[field])}`);
  return h(
    'li',
    {},
    h('code', {}, name),
    ` ${what}:`,
    h(
      'ul',
      {},
      lines.map((line) => h('li', {}, line)),
    ),
  );
}

/** A field's name as a label: `disposition_date` reads "Disposition date". */
function labelOf(field: string): string {
  const words = field.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function section(title: string, content: HTMLElement): HTMLElement {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return h('section', { 'aria-labelledby': id }, h('h2', { id }, title), content);
}
