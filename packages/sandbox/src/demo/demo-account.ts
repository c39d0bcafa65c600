import { ApiError, type SandboxCore } from '@fflkit/sandbox-core';
import type { DispositionCreate, Receipt, SandboxFixtures, SandboxReceiptPage } from '@fflkit/types';
import type { CorePersister } from '../persistence/persister';
import {
  between,
  CALIBER_SHORTHAND,
  DEALERS,
  DISTRIBUTORS,
  type FirearmModel,
  pick,
  randomAlphanumeric,
  randomAmount,
  randomFirearm,
  randomLetters,
  randomPerson,
  randomSerial,
  seededRandom,
  type Random,
} from './demo-catalog';
import { packageMessage } from '../support/errors';

// The demo account of `fflkit-sandbox --demo`: a dealer's bound books of a few thousand
// receipts over two and a half years, for exploring the API and the console. Everything is
// made through the core's own rules: the books, receipts, dispositions, documents, E4473 data
// and the endpoint as a fixtures file (so the API's validation holds for each record), then a
// few dozen corrections as `PUT /rest/v1/receipts/{id}` requests of the account's back-office
// tokens, which leave audit entries `updated`. One seed gives the same account every time:
// tokens, secret, records and corrections.
//
// Performance: the start time with --demo is mostly the loader's validation of each receipt; it
// is measured, not asserted (see the package README).

/** How many receipts the demo account holds. */
export const DEMO_RECEIPTS = 3_000;

/** The first and the last day of the demo's records: fixed, so that a seed always gives the same dates. */
const FIRST_DAY = Date.UTC(2023, 0, 3);
const LAST_DAY = Date.UTC(2025, 5, 30);
const DAY_MS = 86_400_000;

const NAME = 'Ridgeline Firearms & Outfitters (demo)';
/** The books and how many receipts of a hundred go into each. */
const BOOKS: readonly (readonly [name: string, share: number])[] = [
  ['Main', 80],
  ['Consignment', 9],
  ['Gunsmithing', 8],
  ['Rentals', 3],
];
/** The account as the fixtures file declares it, besides its tokens and records. */
const ACCOUNT = {
  account_type: 'dealer',
  name: NAME,
  books: BOOKS.map(([name]) => name).filter((name) => name !== 'Main'),
} as const;
/** The endpoint of the demo account: a receiver a developer runs on their machine. */
const WEBHOOK_URL = 'http://127.0.0.1:3000/webhooks';
/** Corrections made after the load, each an audit entry `updated`. */
const CORRECTIONS = 40;

/** The demo account as the start banner tells of it. */
export interface DemoAccount {
  readonly seed: number;
  readonly name: string;
  /** The token printed in the banner: fixed for its seed. */
  readonly token: string;
  /** Whether this start made it; `false` when the data file held it already. */
  readonly created: boolean;
  readonly books: readonly string[];
  readonly receipts: number;
  readonly disposed: number;
  /** Corrections made by this start (none when the account was there already). */
  readonly corrected: number;
  readonly webhook: { readonly url: string; readonly secret: string };
}

/** A correction to make once the receipts are loaded: the receipt, by its identity, and the fields to set. */
interface Correction {
  readonly book: string;
  readonly serial_number: string;
  readonly receipt_date: string;
  readonly fields: Readonly<Record<string, string | number>>;
}

/** The demo of a seed: its fixtures file, the corrections to make after it, and what it holds. */
export interface DemoPlan {
  readonly fixtures: SandboxFixtures;
  /** The endpoint, loaded after the corrections, so that they send no delivery to a receiver that is not there. */
  readonly webhook: { readonly url: string; readonly secret: string };
  readonly corrections: readonly Correction[];
  /** The tokens that make the corrections, in turn. */
  readonly correctors: readonly string[];
  readonly token: string;
  readonly disposed: number;
}

/**
 * Makes the demo account of `seed` in the sandbox's core and saves it, unless the core holds it
 * already (from an earlier start on the same data file), which changes nothing. Rejects with an
 * `Error` that says what to do when the sandbox holds its limit of accounts.
 */
export async function addDemoAccount(
  sandbox: { readonly core: SandboxCore; readonly persister: CorePersister },
  seed: number,
): Promise<DemoAccount> {
  const { core, persister } = sandbox;
  const plan = planDemo(seed);
  const mark = persister.mark();
  const [account] = load(core, plan.fixtures).accounts;
  let corrected = 0;
  if (account!.created) corrected = await correct(core, plan);
  // The endpoint comes last: loading it sends nothing, and the corrections above sent nothing to it.
  load(core, {
    accounts: [
      {
        ...ACCOUNT,
        tokens: [{ token: plan.token }],
        webhooks: [{ url: plan.webhook.url, events: ['*'], secret: plan.webhook.secret }],
      },
    ],
  });
  await persister.settle(mark);
  return {
    seed,
    name: NAME,
    token: plan.token,
    created: account!.created,
    books: BOOKS.map(([name]) => name),
    receipts: DEMO_RECEIPTS,
    disposed: plan.disposed,
    corrected,
    webhook: plan.webhook,
  };
}

function load(core: SandboxCore, fixtures: SandboxFixtures) {
  try {
    return core.loadFixtures(fixtures);
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      throw new Error(
        `the demo account cannot be added: ${error.body.message} Start with --max-accounts set higher, or without --demo.`,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * Makes the corrections as `PUT /rest/v1/receipts/{id}` requests, the correcting tokens in turn;
 * resolves with how many were made. A sandbox started with a rate limit too low for them makes
 * fewer: the first 429 ends them.
 */
async function correct(core: SandboxCore, plan: DemoPlan): Promise<number> {
  const ids = await receiptIds(core, plan.token);
  let made = 0;
  for (const correction of plan.corrections) {
    const id = ids.get(identity(correction));
    const token = plan.correctors[made % plan.correctors.length]!;
    const answer = await core.handle({
      method: 'PUT',
      path: `/rest/v1/receipts/${id}`,
      query: '',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'user-agent': 'ridgeline-back-office/3.2',
      },
      body: JSON.stringify(correction.fields),
    });
    if (answer.status === 429) break;
    if (answer.status !== 200)
      throw new Error(
        packageMessage(
          `the demo's correction of receipt ${id} was answered ${answer.status}: ${JSON.stringify(answer.body)}`,
        ),
      );
    made += 1;
  }
  return made;
}

/** Every receipt id of the account, by identity, through the control API's browsing (not counted, not logged). */
async function receiptIds(core: SandboxCore, token: string): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let page = 1; ; page += 1) {
    const answer = await core.handle({
      method: 'GET',
      path: '/_sandbox/receipts',
      query: `per_page=1000&page=${page}`,
      headers: { authorization: `Bearer ${token}` },
    });
    const { data, meta } = answer.body as SandboxReceiptPage;
    for (const receipt of data as Receipt[]) ids.set(identity(receipt), receipt.id);
    if (page >= meta.last_page) return ids;
  }
}

function identity(receipt: { book: string; serial_number: string; receipt_date: string }): string {
  return `${receipt.book}\n${receipt.serial_number}\n${receipt.receipt_date}`;
}

/** The demo of a seed, computed without a sandbox: the same for the same seed. */
export function planDemo(seed: number): DemoPlan {
  const random = seededRandom(seed);
  const token = `sbx_demo${randomAlphanumeric(random, 28)}`;
  const correctors = [`sbx_${randomAlphanumeric(random, 32)}`, `sbx_${randomAlphanumeric(random, 32)}`];
  const webhook = { url: WEBHOOK_URL, secret: `whsec_demo${randomAlphanumeric(random, 28)}` };
  const days = Math.round((LAST_DAY - FIRST_DAY) / DAY_MS);
  const offsets = Array.from({ length: DEMO_RECEIPTS }, () => between(random, 0, days)).sort((a, b) => a - b);
  const corrected = new Set<number>();
  while (corrected.size < CORRECTIONS) corrected.add(between(random, 0, DEMO_RECEIPTS - 1));

  const serials = new Set<string>();
  const forms = { next: 1 };
  const receipts: NonNullable<SandboxFixtures['accounts'][number]['receipts']> = [];
  const corrections: Correction[] = [];
  let disposed = 0;
  offsets.forEach((offset, index) => {
    const book = pickBook(random);
    const firearm = randomFirearm(random);
    let serial = randomSerial(random, firearm);
    while (serials.has(serial)) serial = randomSerial(random, firearm);
    serials.add(serial);
    const receiptDate = isoDate(FIRST_DAY + offset * DAY_MS);
    const receipt = acquisition(random, book, firearm, serial, receiptDate);
    if (corrected.has(index)) {
      const correction = misrecord(random, receipt, firearm);
      if (correction !== undefined) corrections.push(correction);
    }
    const disposition = dispose(random, book, firearm, offset, days, forms);
    if (disposition !== undefined) {
      disposed += 1;
      receipt['disposition'] = disposition.disposition;
      if (disposition.e4473 !== undefined) receipt['e4473'] = disposition.e4473;
    }
    receipts.push(receipt as (typeof receipts)[number]);
  });

  const fixtures: SandboxFixtures = {
    accounts: [
      {
        ...ACCOUNT,
        books: [...ACCOUNT.books],
        tokens: [
          { token, name: 'Demo', permissions: ['read', 'write', 'delete'] },
          { token: correctors[0]!, name: 'Back office', permissions: ['read', 'write'] },
          { token: correctors[1]!, name: 'Point of sale', permissions: ['read', 'write'] },
        ],
        receipts,
      },
    ],
  };
  return { fixtures, webhook, corrections, correctors, token, disposed };
}

function pickBook(random: Random): string {
  let left = random() * 100;
  for (const [name, share] of BOOKS) {
    left -= share;
    if (left < 0) return name;
  }
  return 'Main';
}

/** An acquisition into `book`: from a distributor or another dealer, or from a person (a trade-in, a consignment, a repair). */
function acquisition(
  random: Random,
  book: string,
  firearm: FirearmModel,
  serial: string,
  date: string,
): Record<string, unknown> {
  const receipt: Record<string, unknown> = {
    book,
    serial_number: serial,
    manufacturer: firearm.manufacturer,
    ...(firearm.importer !== undefined && { importer: firearm.importer, country_of_origin: firearm.country }),
    model: firearm.model,
    type: firearm.type,
    caliber: firearm.caliber,
    receipt_date: date,
  };
  const [low, high] = firearm.cost;
  const fromPerson = book === 'Consignment' || book === 'Gunsmithing' || (book === 'Main' && random() < 0.08);
  if (fromPerson) {
    const person = randomPerson(random);
    Object.assign(receipt, {
      received_from: person.name,
      address: person.address,
      city: person.city,
      state: person.state,
      zip: person.zip,
    });
    // A trade-in is bought; a consigned or repaired firearm stays its owner's.
    if (book === 'Main') receipt['purchase_amount'] = randomAmount(random, low * 0.55, high * 0.65);
    return receipt;
  }
  const seller = book === 'Main' && random() < 0.12 ? pick(random, DEALERS) : pick(random, DISTRIBUTORS);
  Object.assign(receipt, {
    received_from: seller.name,
    ffl_license: seller.ffl_license,
    purchase_amount: randomAmount(random, low, high),
  });
  if (random() < 0.15) {
    receipt['documents'] = [
      {
        name: `invoice-${between(random, 100_000, 999_999)}.pdf`,
        mime_type: 'application/pdf',
        size: between(random, 38_000, 240_000),
      },
    ];
  }
  return receipt;
}

/** Records a receipt as a hurried clerk would, and the correction that puts it right later. */
function misrecord(random: Random, receipt: Record<string, unknown>, firearm: FirearmModel): Correction | undefined {
  const identity = {
    book: receipt['book'] as string,
    serial_number: receipt['serial_number'] as string,
    receipt_date: receipt['receipt_date'] as string,
  };
  const shorthand = CALIBER_SHORTHAND[firearm.caliber];
  const amount = receipt['purchase_amount'];
  if (shorthand !== undefined && (typeof amount !== 'number' || random() < 0.6)) {
    receipt['caliber'] = shorthand;
    return { ...identity, fields: { caliber: firearm.caliber } };
  }
  if (typeof amount !== 'number') return undefined;
  // A price keyed without its decimal point.
  receipt['purchase_amount'] = Math.round(amount * 100);
  return { ...identity, fields: { purchase_amount: amount } };
}

/** What became of a receipt by the demo's last day: sold, returned to its owner, transferred, or still on hand. */
function dispose(
  random: Random,
  book: string,
  firearm: FirearmModel,
  offset: number,
  days: number,
  forms: { next: number },
): { disposition: DispositionCreate; e4473?: Record<string, unknown> } | undefined {
  if (book === 'Rentals') return undefined;
  const after = book === 'Gunsmithing' ? between(random, 5, 45) : between(random, 1, 200);
  if (offset + after > days || random() < (book === 'Gunsmithing' ? 0.02 : 0.3)) return undefined;
  const date = isoDate(FIRST_DAY + (offset + after) * DAY_MS);
  const person = randomPerson(random);
  if (book === 'Gunsmithing') {
    // Back to its owner, at the owner's address.
    return {
      disposition: {
        disposition_date: date,
        disposed_to: person.name,
        address: person.address,
        city: person.city,
        state: person.state,
        zip: person.zip,
      } as DispositionCreate,
    };
  }
  if (book === 'Main' && random() < 0.05) {
    const dealer = pick(random, DEALERS);
    return {
      disposition: {
        disposition_date: date,
        disposed_to: dealer.name,
        address: dealer.address,
        city: dealer.city,
        state: dealer.state,
        zip: dealer.zip,
        sold_price: randomAmount(random, firearm.cost[0], firearm.cost[1]),
      } as DispositionCreate,
    };
  }
  const form = `4473-${String(forms.next).padStart(6, '0')}`;
  forms.next += 1;
  const delayed = random() < 0.06;
  const ntn = `${between(random, 1, 9)}${randomLetters(random, 3)}${between(random, 0, 9)}${randomLetters(random, 4)}`;
  const disposition: DispositionCreate = {
    disposition_date: date,
    disposed_to: person.name,
    form_4473_serial: form,
    nics_ccw: ntn,
    sold_price: randomAmount(random, firearm.cost[1] * 1.12, firearm.cost[1] * 1.35),
  };
  const e4473 = {
    form_4473_serial: form,
    transferee_name: person.name,
    nics_transaction_number: ntn,
    nics_result: delayed ? 'delayed' : 'proceed',
    completed_at: `${date}T${String(between(random, 14, 23)).padStart(2, '0')}:${String(between(random, 0, 59)).padStart(2, '0')}:00Z`,
  };
  return { disposition, e4473 };
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
