import type { AuditEntry, Receipt } from '@fflkit/types';
import { details, h, table } from '../elements';
import { formatAddress, formatAmount, formatTime, formatValue } from '../formats';
import { ConsoleApiError } from '../control-api';
import { errorAlert, heading, type PageContext } from '../page';
import { lastBookAddress } from './book';

// One receipt as its line of the bound book and everything behind it: the firearm, its receipt,
// its disposition, its documents, its E4473 data, and its audit trail as field changes
// (GET /_sandbox/receipts/{id} and its /audit, control calls that spend no rate limit).

/** Draws the page of the receipt whose id is in the address. */
export async function showReceipt(view: HTMLElement, context: PageContext): Promise<void> {
  const back = h('p', {}, h('a', { href: lastBookAddress() }, 'Back to the bound book'));
  let receipt: Receipt;
  let audit: AuditEntry[];
  const id = Number(context.id);
  try {
    if (!/^\d+$/.test(context.id)) throw new ConsoleApiError(404, 'Record not found.');
    [{ data: receipt }, { data: audit }] = await Promise.all([
      context.api.call('get', '/_sandbox/receipts/{id}', { path: { id } }),
      context.api.call('get', '/_sandbox/receipts/{id}/audit', { path: { id } }),
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
        ['When', 'Action', 'Token', 'Changes'],
        audit.map((entry) =>
          h(
            'tr',
            {},
            h('td', {}, formatTime(entry.occurred_at)),
            h('td', {}, entry.action),
            h('td', {}, entry.token_id === null ? 'none' : `key ${entry.token_id}`),
            h(
              'td',
              {},
              h(
                'ul',
                { class: 'changes' },
                Object.entries(entry.changes).map(([name, change]) =>
                  h('li', {}, h('code', {}, name), `: ${formatValue(change.from)} to ${formatValue(change.to)}`),
                ),
              ),
            ),
          ),
        ),
        'No audit entries.',
      ),
    ),
  );
}

function section(title: string, content: HTMLElement): HTMLElement {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return h('section', { 'aria-labelledby': id }, h('h2', { id }, title), content);
}
