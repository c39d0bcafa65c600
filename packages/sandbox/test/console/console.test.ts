import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDriftProxy, startSandbox, type RunningSandbox } from '../../src/index';
import { startDriftingUpstream } from '../support/drifting-upstream';
import { startReceiver } from '../support/local-receiver';
import { checkPage, launchBrowser, newConsolePage, type ConsolePage } from './support/console-browser';

// One test per flow of the console, each in a tab of its own and an account of its own, driven
// as a person would: by the accessible names of headings, buttons, links and fields. Every page
// a flow reaches is checked with axe-core and saved as a screenshot in test/console/screenshots/.

let browser: Browser;
let sandbox: RunningSandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  [browser, sandbox, receiver] = await Promise.all([launchBrowser(), startSandbox(), startReceiver()]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), sandbox?.stop(), receiver?.close()]);
});

/** A call of the service API or the control API from outside the browser, as an integrator's program makes it. */
async function call(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${sandbox.url}${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
}

async function json<T>(response: Promise<Response>): Promise<T> {
  const answer = await response;
  expect(answer.ok, `${answer.url} answered ${answer.status}`).toBe(true);
  return (await answer.json()) as T;
}

/** A token of a new account that has made no API request yet. */
async function newAccount(): Promise<string> {
  return (await sandbox.createAccount({ books: ['Consignment'] })).token;
}

/** Opens the console signed in, as the CLI's link does, in a new tab. */
async function signedIn(token: string, origin = sandbox.url): Promise<ConsolePage> {
  const opened = await newConsolePage(browser);
  await opened.page.goto(`${origin}/#token=${token}`);
  await opened.page.getByRole('heading', { level: 1, name: 'Bound book' }).waitFor();
  return opened;
}

function receipt(n: number, overrides: Record<string, unknown> = {}) {
  return {
    book: 'Main',
    serial_number: `EXA-${String(n).padStart(6, '0')}`,
    manufacturer: n % 2 === 0 ? 'Example Arms Co.' : 'Example Rifle Works',
    model: 'EX-9',
    type: 'Pistol',
    caliber: '9mm',
    receipt_date: '2025-01-15',
    purchase_amount: 349.99,
    received_from: 'Example Firearms Wholesale LLC',
    ffl_license: '9-99-999-01-6A-00001',
    ...overrides,
  };
}

describe('the console', () => {
  it('signs in through the link the CLI prints, at localhost too, keeps the token out of the address, and signs out', async () => {
    const token = await newAccount();
    const port = new URL(sandbox.url).port;
    const opened = await newConsolePage(browser);
    const { page } = opened;
    await page.goto(`http://localhost:${port}/`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await checkPage(opened, '01-sign-in');

    await page.getByLabel('Token', { exact: true }).fill('sbx_unknown0000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The sandbox does not know this token');

    await page.goto(`http://localhost:${port}/#token=${token}`);
    await page.getByRole('heading', { level: 1, name: 'Bound book' }).waitFor();
    expect(page.url()).toBe(`http://localhost:${port}/#/book`);
    expect(await page.evaluate(() => [...Object.values(sessionStorage)])).toEqual([token]);
    await expect.poll(() => page.getByText('The book is empty').count()).toBe(1);
    await checkPage(opened, '02-bound-book-empty');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    // Pasting the token signs in as well, at the sandbox's IP address.
    const pasted = await newConsolePage(browser);
    await pasted.page.goto(`${sandbox.url}/`);
    await pasted.page.getByLabel('Token', { exact: true }).fill(token);
    await pasted.page.getByRole('button', { name: 'Sign in' }).click();
    await pasted.page.getByRole('heading', { level: 1, name: 'Bound book' }).waitFor();
    expect(pasted.problems).toEqual([]);

    // Without a token, Make an account signs in with the token of a new account.
    const fresh = await newConsolePage(browser);
    await fresh.page.goto(`${sandbox.url}/`);
    await fresh.page.getByRole('button', { name: 'Make an account' }).click();
    await fresh.page.getByRole('heading', { level: 1, name: 'Bound book' }).waitFor();
    const made = await fresh.page.evaluate(() => [...Object.values(sessionStorage)]);
    expect(made).toHaveLength(1);
    expect(made[0]).not.toBe(token);
    expect((await call(made[0]!, 'GET', '/rest/v1/books')).status).toBe(200);
  });

  it('creates a key with the permissions chosen, shows it once, and revokes it: the revoked key then gets 401', async () => {
    const token = await newAccount();
    const opened = await signedIn(token);
    const { page } = opened;
    // By keyboard: the skip link comes first, then the navigation; a page opened takes the focus to its heading.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.getByRole('link', { name: 'API keys' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await expect
      .poll(() => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent}`))
      .toBe('H1 API keys');
    await page.getByLabel('Name').fill('Inventory sync');
    await page.getByRole('checkbox', { name: /^write/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByLabel('New key');
    await secret.waitFor();
    const key = await secret.inputValue();
    expect(key).toMatch(/^sbx_[A-Za-z0-9]+$/);
    const row = page.getByRole('row', { name: /Inventory sync/ });
    await expect.poll(() => row.textContent()).toContain('read, write');
    // Keys are known by their names: no number counted across the sandbox's accounts.
    const keys = page.getByRole('table', { name: 'Keys of the account' });
    expect(await keys.locator('tbody th').allTextContents()).toEqual(['Unnamed key', 'Inventory sync']);
    expect(await keys.textContent()).not.toMatch(/Key \d/);
    await checkPage(opened, '03-api-keys-created');

    expect((await call(key, 'GET', '/rest/v1/books')).status).toBe(200);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await call(key, 'GET', '/rest/v1/books')).status).toBe(401);
    await checkPage(opened, '04-api-keys-revoked');

    // The account's requests, the revoked key's 401 among them; the console's own calls are not there.
    await page.getByRole('link', { name: 'Requests' }).click();
    await page.getByRole('heading', { level: 1, name: 'Requests' }).waitFor();
    await expect.poll(() => page.getByRole('row', { name: /GET \/rest\/v1\/books/ }).count()).toBe(2);
    await expect.poll(() => page.getByRole('row', { name: /401/ }).count()).toBe(1);
    // A request made while the page is open appears without a reload.
    expect((await call(token, 'GET', '/rest/v1/inventory?book=Main')).status).toBe(200);
    await expect.poll(() => page.getByRole('row', { name: /GET \/rest\/v1\/inventory\?book=Main/ }).count()).toBe(1);
    expect(await page.getByRole('row', { name: /_sandbox/ }).count()).toBe(0);
    // A request a fault rule failed after acting shows its status and what the rule did.
    expect(
      (
        await call(token, 'POST', '/_sandbox/faults', {
          operation: 'listInventory',
          action: 'status',
          status: 503,
          after_acting: true,
          times: 1,
        })
      ).status,
    ).toBe(201);
    expect((await call(token, 'GET', '/rest/v1/inventory?book=Main')).status).toBe(503);
    const faulted = page.getByRole('row', { name: /rule \d+: error answer after acting \(200 withheld\)/ });
    await expect.poll(() => faulted.count()).toBe(1);
    expect(await faulted.getByRole('cell').nth(1).textContent()).toBe('503');
    await checkPage(opened, '05-requests');

    // A refused request opens on its details: the body sent, the headers, and the answer that says why.
    expect((await call(token, 'POST', '/rest/v1/receipts', receipt(1, { zip: '1234' }))).status).toBe(422);
    const refused = page.getByRole('row', { name: /POST \/rest\/v1\/receipts/ });
    await expect.poll(() => refused.count()).toBe(1);
    await refused.getByRole('button', { name: /^Details of POST/ }).click();
    const sent = page.getByLabel(/^Body of request/);
    await expect.poll(() => sent.textContent()).toContain('"zip": "1234"');
    const answered = page.getByLabel(/^Answer body of request/);
    await expect.poll(() => answered.textContent()).toContain('"zip": [');
    const detail = page.locator('.detail-row');
    expect(await detail.textContent()).toContain('Bearer [redacted]');
    expect(await detail.textContent()).not.toContain(token);
    await checkPage(opened, '05-request-detail');
  });

  it('adds an endpoint, tests it against a local receiver, and shows the delivery with its signed request', async () => {
    const token = await newAccount();
    const opened = await signedIn(token);
    const { page } = opened;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByLabel('URL').fill(`${receiver.url}/hooks/tested`);
    await page.getByRole('checkbox', { name: 'receipt.created' }).check();
    await page.getByRole('checkbox', { name: 'receipt.disposed' }).check();
    expect(await page.getByRole('checkbox', { name: 'All events (*)' }).isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    const row = page.getByRole('row', { name: /hooks\/tested/ });
    await expect.poll(() => row.textContent()).toContain('receipt.created, receipt.disposed');
    await checkPage(opened, '06-webhooks-added');

    const before = receiver.received.length;
    await row.getByRole('button', { name: 'Test' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Ping to endpoint' }).textContent())
      .toMatch(/delivered: answered 200/);
    const ping = receiver.received[before]!;
    expect(ping.headers['x-svc-event']).toBe('ping');
    expect(ping.headers['x-svc-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(ping.body).digest('hex')}`,
    );
    await checkPage(opened, '07-webhooks-tested');

    await page.getByRole('link', { name: /^Deliveries of endpoint/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Deliveries' }).waitFor();
    const delivery = page.getByRole('row', { name: /^ping/ });
    await expect.poll(() => delivery.textContent()).toContain('succeeded');
    await delivery.getByRole('button', { name: 'Details' }).click();
    await expect.poll(() => page.getByRole('table', { name: /^Attempts of delivery/ }).textContent()).toContain('200');
    expect(await page.getByRole('region', { name: 'Deliveries' }).locator('dd code').allTextContents()).toContain(
      String(ping.headers['x-svc-signature']),
    );
    expect(await page.getByLabel('Request body').textContent()).toBe(ping.body);
    await checkPage(opened, '08-delivery-details');

    // A receipt made by an integrator's program: its delivery appears without a reload.
    expect((await call(token, 'POST', '/rest/v1/receipts', receipt(1))).status).toBe(201);
    await expect.poll(() => page.getByRole('row', { name: /^receipt\.created/ }).textContent()).toContain('succeeded');
    await checkPage(opened, '09-deliveries-live');
  });

  it('makes an endpoint fail ten times in a row through the Clock, then re-enables it', async () => {
    const failing = await startReceiver(() => ({ status: 500 }));
    try {
      const opened = await signedIn(await newAccount());
      const { page } = opened;
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('URL').fill(`${failing.url}/hooks/failing`);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const row = page.getByRole('row', { name: /hooks\/failing/ });
      for (const failures of ['1', '2']) {
        await row.getByRole('button', { name: 'Test' }).click();
        await expect.poll(() => row.getByRole('cell').nth(3).textContent()).toBe(failures);
      }
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Ping to endpoint' }).textContent())
        .toMatch(/failed \(answered 500\)/);

      await page.getByRole('link', { name: 'Clock' }).click();
      await page.getByRole('heading', { level: 1, name: 'Clock' }).waitFor();
      await page.getByRole('button', { name: 'Advance 1 min' }).click();
      const fell = page.getByRole('table', { name: /^Delivery attempts made while the clock skipped/ });
      await expect.poll(() => fell.getByRole('row').count()).toBe(3);
      await page.getByLabel('Amount', { exact: true }).fill('1');
      await page.getByLabel('Unit', { exact: true }).selectOption({ label: 'days' });
      await page.getByRole('button', { name: 'Advance', exact: true }).click();
      // Two pings failed at once and after 1 min: 6 more attempts (5 min, 30 min, 2 h) make ten.
      await expect.poll(() => fell.getByRole('row').count()).toBe(7);
      expect(await fell.getByRole('cell', { name: '500', exact: true }).count()).toBe(6);
      await expect.poll(() => page.getByText(/^Disabled after repeated failures: endpoint \d+/).count()).toBe(1);
      expect(
        await page.getByText('Ahead of real time by').locator('xpath=following-sibling::dd[1]').textContent(),
      ).toBe('1 d 1 min');
      await checkPage(opened, '10-clock-advanced');

      await page.getByRole('link', { name: 'Re-enable on the Webhooks page' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await expect.poll(() => row.textContent()).toMatch(/Disabled\s*10/);
      await checkPage(opened, '11-webhooks-disabled');
      await row.getByRole('button', { name: 'Re-enable' }).click();
      await expect.poll(() => row.textContent()).toMatch(/Enabled\s*0/);
      expect(await row.getByRole('button', { name: 'Test' }).count()).toBe(1);
      expect(failing.received.length).toBe(10);
    } finally {
      await failing.close();
    }
  });

  it('resends a delivery: the new attempt is shown with its outcome', async () => {
    let status = 503;
    const flaky = await startReceiver(() => ({ status }));
    try {
      const token = await newAccount();
      const created = await json<{ data: { id: number } }>(
        call(token, 'POST', '/_sandbox/webhooks', { url: `${flaky.url}/hooks/flaky`, events: ['*'] }),
      );
      await json(call(token, 'POST', `/_sandbox/webhooks/${created.data.id}/ping`));
      const opened = await signedIn(token);
      const { page } = opened;
      await page.getByRole('link', { name: 'Deliveries' }).click();
      const row = page.getByRole('row', { name: /^ping/ });
      await expect.poll(() => row.textContent()).toContain('pending');
      await page.getByLabel('State').selectOption('pending');
      await page.getByRole('button', { name: 'Filter' }).click();
      await expect.poll(() => page.url()).toContain('state=pending');
      await expect.poll(() => row.count()).toBe(1);
      await checkPage(opened, '12-deliveries-pending');

      status = 200;
      await row.getByRole('button', { name: 'Resend' }).click();
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Resent' }).textContent())
        .toBe(`Resent ping to endpoint ${created.data.id}: answered 200.`);
      await expect.poll(() => row.textContent()).toContain('succeeded');
      await row.getByRole('button', { name: 'Details' }).click();
      const attempts = page.getByRole('table', { name: /^Attempts of delivery/ });
      await expect.poll(() => attempts.getByRole('row').count()).toBe(3);
      expect(flaky.received.map((request) => request.headers['x-svc-delivery'])).toEqual([
        expect.any(String),
        flaky.received[0]!.headers['x-svc-delivery'],
      ]);
      await checkPage(opened, '13-delivery-resent');
    } finally {
      await flaky.close();
    }
  });

  it("browses the book with filters and pages, opens a receipt's audit trail, and exports the CSV, spending no rate limit", async () => {
    const token = await newAccount();
    // Seeding takes more requests than one token's minute allows: two more tokens share it.
    const seeders = await Promise.all(
      [1, 2].map(
        async () =>
          (await json<{ token: string }>(call(token, 'POST', '/_sandbox/tokens', { permissions: ['read', 'write'] })))
            .token,
      ),
    );
    const ids: number[] = [];
    for (let n = 1; n <= 60; n += 1) {
      const made = await json<{ data: { id: number } }>(
        call(seeders[n <= 50 ? 0 : 1]!, 'POST', '/rest/v1/receipts', receipt(n)),
      );
      ids.push(made.data.id);
    }
    await json(
      call(
        seeders[1]!,
        'POST',
        '/rest/v1/receipts',
        receipt(61, { book: 'Consignment', manufacturer: 'Example Consigned Arms' }),
      ),
    );
    const audited = ids[6]!;
    await json(call(seeders[1]!, 'PUT', `/rest/v1/receipts/${audited}`, { caliber: '9x19mm' }));
    await json(
      call(seeders[1]!, 'POST', `/rest/v1/receipts/${audited}/dispose`, {
        disposition_date: '2025-02-01',
        disposed_to: 'Jordan Example',
        form_4473_serial: 'F-000123',
        sold_price: 499,
      }),
    );
    await json(
      call(token, 'POST', `/_sandbox/receipts/${audited}/documents`, {
        name: 'invoice.pdf',
        mime_type: 'application/pdf',
        size: 48213,
      }),
    );
    await json(
      call(token, 'PUT', `/_sandbox/receipts/${audited}/e4473`, {
        form_4473_serial: 'F-000123',
        transferee_name: 'Jordan Example',
        nics_transaction_number: '1ABCD2EFG',
        nics_result: 'proceed',
        completed_at: '2025-02-01T16:20:00Z',
      }),
    );

    const opened = await signedIn(token);
    const { page } = opened;
    const summary = page.locator('.summary');
    await expect.poll(() => summary.textContent()).toBe('Receipts 1 to 50 of 61, page 1 of 2.');
    expect(
      await page
        .getByRole('table', { name: /^Bound book/ })
        .locator('tbody tr')
        .count(),
    ).toBe(50);
    // The page is drawn once <main> is no longer busy: the open event stream keeps the network busy.
    await page.locator('main:not([aria-busy])').waitFor();
    await checkPage(opened, '14-bound-book');
    // At 1,280 px the whole book is in view, the disposition columns included: nothing to scroll to.
    const fit = await page.evaluate(() => {
      const scroller = document.querySelector<HTMLElement>('.scroller:has(table.book)')!;
      const last = [...document.querySelectorAll('table.book thead tr:nth-child(2) th')].at(-1)!;
      return {
        table: scroller.scrollWidth,
        scroller: scroller.clientWidth,
        lastRight: last.getBoundingClientRect().right,
        viewport: window.innerWidth,
      };
    });
    expect(fit.table).toBeLessThanOrEqual(fit.scroller);
    expect(fit.lastRight).toBeLessThanOrEqual(fit.viewport);
    // Narrower, the book scrolls sideways, and the record number and serial number stay in view.
    await page.setViewportSize({ width: 800, height: 900 });
    const held = await page.evaluate(() => {
      const scroller = document.querySelector<HTMLElement>('.scroller:has(table.book)')!;
      scroller.scrollLeft = scroller.scrollWidth;
      const row = document.querySelector('table.book tbody tr')!;
      const seen = (cell: Element) => {
        const box = cell.getBoundingClientRect();
        const at = document.elementFromPoint(box.left + 4, box.top + box.height / 2);
        return cell.contains(at) && box.left >= scroller.getBoundingClientRect().left - 1;
      };
      return {
        scrolled: scroller.scrollLeft > 0,
        record: seen(row.querySelector('th.record')!),
        serial: seen(row.querySelector('td.serial')!),
        date: seen(row.querySelectorAll('td')[6]!),
      };
    });
    expect(held).toEqual({ scrolled: true, record: true, serial: true, date: false });
    await checkPage(opened, '14-bound-book-800px');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: 'Next page' }).click();
    await expect.poll(() => summary.textContent()).toBe('Receipts 51 to 61 of 61, page 2 of 2.');

    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect.poll(() => summary.textContent()).toBe('Receipts 1 to 50 of 61, page 1 of 2.');
    // The Book filter lists the account's books with their counts (GET /_sandbox/books).
    expect(await page.getByLabel('Book', { exact: true }).locator('option').allTextContents()).toEqual([
      'All books',
      'Main (60)',
      'Consignment (1)',
    ]);
    await page.getByLabel('Book', { exact: true }).selectOption('Consignment');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => summary.textContent()).toBe('Receipts 1 to 1 of 1, page 1 of 1.');
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect.poll(() => summary.textContent()).toBe('Receipts 1 to 50 of 61, page 1 of 2.');
    await page.getByLabel('Status').selectOption('disposed');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => summary.textContent()).toBe('Receipts 1 to 1 of 1, page 1 of 1.');
    const line = page.getByRole('table', { name: /^Bound book/ }).locator('tbody tr');
    // The record number and its book head the line; then the columns of 27 CFR 478.125(e).
    expect(await line.getByRole('rowheader').textContent()).toBe('7Main');
    expect((await line.getByRole('cell').allTextContents()).slice(0, 14)).toEqual([
      'Example Rifle Works',
      '',
      'EX-9',
      'EXA-000007',
      'Pistol',
      '9x19mm',
      '2025-01-15',
      'Example Firearms Wholesale LLC',
      '',
      '9-99-999-01-6A-00001',
      '2025-02-01',
      'Jordan Example',
      '',
      'F-000123',
    ]);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect.poll(() => summary.textContent()).toBe('Receipts 1 to 50 of 61, page 1 of 2.');
    await page.getByLabel('Search').fill('consigned');
    await page.getByLabel('In field').selectOption('manufacturer');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => summary.textContent()).toBe('Receipts 1 to 1 of 1, page 1 of 1.');
    await checkPage(opened, '15-bound-book-searched');

    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect.poll(() => summary.textContent()).toBe('Receipts 1 to 50 of 61, page 1 of 2.');
    await page.getByLabel('Serial number').fill('exa-000007');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => summary.textContent()).toBe('Receipts 1 to 1 of 1, page 1 of 1.');
    await page.getByRole('link', { name: '7', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Record 7 of Main' }).waitFor();
    const trail = page.getByRole('table', { name: 'Audit trail, oldest first' });
    await expect.poll(() => trail.locator('tbody tr').count()).toBe(3);
    expect(await trail.locator('tbody tr td:nth-child(2)').allTextContents()).toEqual([
      'created',
      'updated',
      'disposed',
    ]);
    expect(await trail.locator('tbody tr').nth(1).textContent()).toContain('caliber: "9mm" to "9x19mm"');
    // The disposition reads as its fields, each with its label, not as the JSON of a record.
    const disposed = trail.locator('tbody tr').nth(2);
    expect((await disposed.locator('td').nth(3).locator('li li').allTextContents()).sort()).toEqual([
      'Disposed to: "Jordan Example"',
      'Disposition date: "2025-02-01"',
      'Form 4473 serial: "F-000123"',
      'Sold price: 499',
    ]);
    expect(await disposed.textContent()).not.toMatch(/[{}]/);
    expect(await trail.locator('tbody tr td:nth-child(3)').allTextContents()).toEqual([
      'Unnamed key',
      'Unnamed key',
      'Unnamed key',
    ]);
    expect(await page.getByRole('link', { name: 'invoice.pdf' }).count()).toBe(1);
    expect(await page.getByRole('region', { name: 'E4473 data' }).textContent()).toContain('1ABCD2EFG');
    await checkPage(opened, '16-receipt');

    await page.getByRole('link', { name: 'Back to the bound book' }).click();
    await expect.poll(() => page.url()).toContain('serial_number=exa-000007');
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect.poll(() => summary.textContent()).toBe('Receipts 1 to 50 of 61, page 1 of 2.');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('bound-book.csv');
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'Manufacturer,Importer,Model,Serial Number,Type,Caliber or Gauge,Date of Receipt,Received From (Name),Received From (Address),Received From (License No.),Date of Disposition,Disposed To (Name),Disposed To (Address),Disposed To (Form 4473 Serial No.),Book,Record No.,Country of Origin,Status',
    );
    expect(lines).toHaveLength(63);
    expect(lines[1]).toMatch(/^Example Consigned Arms,.*,Consignment,1,,on_hand$/);
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Exported' }).textContent())
      .toBe('Exported bound-book.csv.');

    // The signed-in token spent nothing: its first API request is the first of its window.
    const books = await call(token, 'GET', '/rest/v1/books');
    expect(books.headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it('shows what the drift proxy finds as it finds it, without a token, and says at a sandbox that it is none', async () => {
    const upstream = await startDriftingUpstream(sandbox.url, ['missing-rate-limit-header']);
    const proxy = await startDriftProxy({ upstream: upstream.url });
    try {
      const token = await newAccount();
      const opened = await newConsolePage(browser);
      const { page } = opened;
      await page.goto(`${proxy.origin}/#/drift`);
      await page.getByRole('heading', { level: 1, name: 'Drift' }).waitFor();
      await expect.poll(() => page.getByText('No violation of the contract so far.').count()).toBe(1);
      expect(await page.getByRole('navigation').isHidden()).toBe(true);
      expect(await page.locator('footer').textContent()).toContain('The drift proxy at');

      const books = await fetch(`${proxy.apiUrl}/books`, { headers: { authorization: `Bearer ${token}` } });
      expect(books.status).toBe(200);
      const violations = page.getByRole('table', { name: 'Violations of the contract, in the order first seen' });
      await violations.waitFor();
      expect(await violations.locator('tbody tr').first().textContent()).toContain(
        'GET /books 200/headers/x-ratelimit-remaining',
      );
      expect(await violations.locator('tbody tr').first().textContent()).toContain(
        'rate-limit.headers Every authenticated response carries',
      );
      await expect.poll(() => page.getByRole('status').textContent()).toBe('1 new violation of the contract.');
      await checkPage(opened, '17-drift');

      const atSandbox = await newConsolePage(browser);
      await atSandbox.page.goto(`${sandbox.url}/#/drift`);
      await atSandbox.page.getByText('This is a sandbox, not a drift proxy.', { exact: false }).waitFor();
      expect(atSandbox.problems).toEqual([]);
      expect(opened.problems).toEqual([]);
    } finally {
      await proxy.stop();
      await upstream.stop();
    }
  });

  it('marks its main landmark busy until a page shows its data, the wait for tests that networkidle cannot give', async () => {
    const token = await newAccount();
    expect((await call(token, 'POST', '/rest/v1/receipts', receipt(1))).status).toBe(201);
    const opened = await newConsolePage(browser);
    const { page } = opened;
    // The book's receipts are held back: the page is on screen, its data not yet.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/_sandbox\/receipts\?/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${sandbox.url}/#token=${token}`);
    await page.getByRole('heading', { level: 1, name: 'Bound book' }).waitFor();
    expect(await page.locator('main').getAttribute('aria-busy')).toBe('true');
    expect(await page.locator('.summary').count()).toBe(0);

    release();
    await page.locator('main:not([aria-busy])').waitFor();
    // No poll: once <main> is no longer busy, the page shows what it loaded.
    expect(await page.locator('.summary').textContent()).toBe('Receipts 1 to 1 of 1, page 1 of 1.');

    // A page that fails to load is drawn with its error, and is not left busy either.
    await page.unroute(/\/_sandbox\/receipts\?/);
    await page.route(/\/_sandbox\/receipts\?/, (route) => route.abort());
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.getByRole('link', { name: 'Bound book' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bound book' }).waitFor();
    await page.locator('main:not([aria-busy])').waitFor();
    expect(await page.getByRole('alert').count()).toBe(1);
    expect(opened.problems).toEqual([]);
  });
});
