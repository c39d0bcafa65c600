import type { ReceiptCreate } from '@fflkit/types';

// What realistic records are made of: firearms as dealers stock them (makes, models, types,
// calibers, and the importer and country of those made abroad), the wholesalers a dealer buys
// from, and the people who sell, consign or bring in a firearm, with addresses. The makes and
// models are real products; every business, person, address and license number is invented
// (license numbers have the right shape and are made up). A seeded random source
// picks from them, so that one seed always gives the same records.

/** A random source: numbers in [0, 1), as `Math.random` gives them. */
export type Random = () => number;

/**
 * A random source seeded with a 32-bit number (mulberry32): the same seed gives the same
 * numbers on every platform and version of Node.
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A whole number from `min` to `max`, both included. */
export function between(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** One of `items`, each as likely as the others. */
export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters of `alphabet`. */
function randomText(random: Random, alphabet: string, length: number): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += alphabet[Math.floor(random() * alphabet.length)];
  return text;
}

/** `length` capital letters. */
export function randomLetters(random: Random, length: number): string {
  return randomText(random, LETTERS, length);
}

/** `length` letters and digits, as a fixture's token or secret takes them. */
export function randomAlphanumeric(random: Random, length: number): string {
  return randomText(random, ALPHANUMERIC, length);
}

/** A firearm model as a dealer receives it. */
export interface FirearmModel {
  readonly manufacturer: string;
  readonly model: string;
  readonly type: string;
  readonly caliber: string;
  /** The importer and the country of manufacture of a firearm made abroad. */
  readonly importer?: string;
  readonly country?: string;
  /** The dealer's cost, in whole dollars: from and to. */
  readonly cost: readonly [number, number];
  /** The shape of its serial numbers: `A` a letter, `0` a digit, anything else as it is. */
  readonly serial: string;
  /** How often a dealer receives one, relative to the others. */
  readonly weight: number;
}

/** Firearms as a US dealer stocks them. */
const FIREARMS: readonly FirearmModel[] = [
  {
    manufacturer: 'Glock',
    model: 'G19 Gen5',
    type: 'Pistol',
    caliber: '9mm Luger',
    importer: 'Glock, Inc.',
    country: 'Austria',
    cost: [480, 560],
    serial: 'AAAA000',
    weight: 9,
  },
  {
    manufacturer: 'Glock',
    model: 'G17 Gen5',
    type: 'Pistol',
    caliber: '9mm Luger',
    importer: 'Glock, Inc.',
    country: 'Austria',
    cost: [480, 560],
    serial: 'AAAA000',
    weight: 5,
  },
  {
    manufacturer: 'Glock',
    model: 'G43X',
    type: 'Pistol',
    caliber: '9mm Luger',
    importer: 'Glock, Inc.',
    country: 'Austria',
    cost: [430, 500],
    serial: 'AAAA000',
    weight: 5,
  },
  {
    manufacturer: 'Sig Sauer',
    model: 'P365',
    type: 'Pistol',
    caliber: '9mm Luger',
    cost: [450, 560],
    serial: '66A000000',
    weight: 8,
  },
  {
    manufacturer: 'Sig Sauer',
    model: 'P320 Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    cost: [480, 590],
    serial: '58A000000',
    weight: 4,
  },
  {
    manufacturer: 'Smith & Wesson',
    model: 'M&P9 Shield Plus',
    type: 'Pistol',
    caliber: '9mm Luger',
    cost: [380, 460],
    serial: 'AAA0000',
    weight: 7,
  },
  {
    manufacturer: 'Smith & Wesson',
    model: 'M&P15 Sport II',
    type: 'Rifle',
    caliber: '5.56x45mm NATO',
    cost: [580, 690],
    serial: 'TAA0000',
    weight: 4,
  },
  {
    manufacturer: 'Smith & Wesson',
    model: 'Model 686 Plus',
    type: 'Revolver',
    caliber: '.357 Magnum',
    cost: [760, 880],
    serial: 'AAA0000',
    weight: 2,
  },
  {
    manufacturer: 'Sturm, Ruger & Co.',
    model: '10/22 Carbine',
    type: 'Rifle',
    caliber: '.22 LR',
    cost: [240, 300],
    serial: '0000-00000',
    weight: 6,
  },
  {
    manufacturer: 'Sturm, Ruger & Co.',
    model: 'LCP II',
    type: 'Pistol',
    caliber: '.380 ACP',
    cost: [250, 300],
    serial: '380000000',
    weight: 4,
  },
  {
    manufacturer: 'Sturm, Ruger & Co.',
    model: 'GP100',
    type: 'Revolver',
    caliber: '.357 Magnum',
    cost: [690, 790],
    serial: '170-00000',
    weight: 2,
  },
  {
    manufacturer: 'Sturm, Ruger & Co.',
    model: 'American Rifle',
    type: 'Rifle',
    caliber: '6.5 Creedmoor',
    cost: [400, 480],
    serial: '690-00000',
    weight: 2,
  },
  {
    manufacturer: 'Springfield Armory',
    model: 'Hellcat',
    type: 'Pistol',
    caliber: '9mm Luger',
    importer: 'Springfield Inc.',
    country: 'Croatia',
    cost: [430, 520],
    serial: 'AT000000',
    weight: 4,
  },
  {
    manufacturer: 'Springfield Armory',
    model: '1911 Mil-Spec',
    type: 'Pistol',
    caliber: '.45 ACP',
    cost: [600, 700],
    serial: 'NM000000',
    weight: 1,
  },
  {
    manufacturer: 'Beretta',
    model: '92FS',
    type: 'Pistol',
    caliber: '9mm Luger',
    importer: 'Beretta USA Corp.',
    country: 'Italy',
    cost: [540, 620],
    serial: 'BER000000',
    weight: 2,
  },
  {
    manufacturer: 'CZ',
    model: 'P-10 C',
    type: 'Pistol',
    caliber: '9mm Luger',
    importer: 'CZ-USA',
    country: 'Czech Republic',
    cost: [400, 470],
    serial: 'G000000',
    weight: 2,
  },
  {
    manufacturer: 'Walther',
    model: 'PDP Compact',
    type: 'Pistol',
    caliber: '9mm Luger',
    importer: 'Walther Arms, Inc.',
    country: 'Germany',
    cost: [520, 610],
    serial: 'FCA0000',
    weight: 2,
  },
  {
    manufacturer: 'Heckler & Koch',
    model: 'VP9',
    type: 'Pistol',
    caliber: '9mm Luger',
    importer: 'Heckler & Koch, Inc.',
    country: 'Germany',
    cost: [600, 700],
    serial: '224-000000',
    weight: 1,
  },
  {
    manufacturer: 'Taurus',
    model: 'G3c',
    type: 'Pistol',
    caliber: '9mm Luger',
    importer: 'Taurus International Manufacturing, Inc.',
    country: 'Brazil',
    cost: [200, 250],
    serial: 'ABA000000',
    weight: 4,
  },
  {
    manufacturer: 'Kimber',
    model: 'Micro 9',
    type: 'Pistol',
    caliber: '9mm Luger',
    cost: [520, 620],
    serial: 'PB0000000',
    weight: 1,
  },
  {
    manufacturer: "Colt's Manufacturing",
    model: 'Python',
    type: 'Revolver',
    caliber: '.357 Magnum',
    cost: [1_180, 1_320],
    serial: 'PY000000',
    weight: 1,
  },
  {
    manufacturer: 'Remington Arms',
    model: '870 Fieldmaster',
    type: 'Shotgun',
    caliber: '12 GA',
    cost: [380, 450],
    serial: 'RS00000A',
    weight: 3,
  },
  {
    manufacturer: 'O.F. Mossberg & Sons',
    model: '500 Field',
    type: 'Shotgun',
    caliber: '12 GA',
    cost: [330, 390],
    serial: 'V0000000',
    weight: 4,
  },
  {
    manufacturer: 'Benelli',
    model: 'M4 Tactical',
    type: 'Shotgun',
    caliber: '12 GA',
    importer: 'Benelli USA Corp.',
    country: 'Italy',
    cost: [1_650, 1_850],
    serial: 'M000000',
    weight: 1,
  },
  {
    manufacturer: 'Browning',
    model: 'Citori 725 Field',
    type: 'Shotgun',
    caliber: '12 GA',
    importer: 'Browning',
    country: 'Japan',
    cost: [2_050, 2_300],
    serial: '00000MT000',
    weight: 1,
  },
  {
    manufacturer: 'Stoeger',
    model: 'M3000',
    type: 'Shotgun',
    caliber: '12 GA',
    importer: 'Stoeger Industries',
    country: 'Turkey',
    cost: [520, 600],
    serial: '0000000',
    weight: 1,
  },
  {
    manufacturer: 'Savage Arms',
    model: '110 Hunter',
    type: 'Rifle',
    caliber: '.308 Winchester',
    cost: [480, 560],
    serial: 'R000000',
    weight: 2,
  },
  {
    manufacturer: 'Henry Repeating Arms',
    model: 'H001 Classic Lever Action',
    type: 'Rifle',
    caliber: '.22 LR',
    cost: [300, 360],
    serial: '000000H',
    weight: 3,
  },
  {
    manufacturer: 'Marlin',
    model: '336 Classic',
    type: 'Rifle',
    caliber: '.30-30 Winchester',
    cost: [960, 1_080],
    serial: 'RM000000',
    weight: 1,
  },
  {
    manufacturer: 'Winchester',
    model: 'Model 70 Featherweight',
    type: 'Rifle',
    caliber: '.30-06 Springfield',
    importer: 'Browning',
    country: 'Portugal',
    cost: [930, 1_050],
    serial: '35ZZ00000',
    weight: 1,
  },
  {
    manufacturer: 'Tikka',
    model: 'T3x Lite',
    type: 'Rifle',
    caliber: '6.5 Creedmoor',
    importer: 'Beretta USA Corp.',
    country: 'Finland',
    cost: [650, 760],
    serial: 'A00000',
    weight: 1,
  },
  {
    manufacturer: 'Daniel Defense',
    model: 'DDM4 V7',
    type: 'Rifle',
    caliber: '5.56x45mm NATO',
    cost: [1_500, 1_700],
    serial: 'DDM0000000',
    weight: 1,
  },
  {
    manufacturer: 'Palmetto State Armory',
    model: 'PA-15',
    type: 'Rifle',
    caliber: '5.56x45mm NATO',
    cost: [420, 520],
    serial: 'SCD000000',
    weight: 2,
  },
  {
    manufacturer: 'Anderson Manufacturing',
    model: 'AM-15',
    type: 'Receiver',
    caliber: 'Multi',
    cost: [55, 80],
    serial: '00000000',
    weight: 2,
  },
];

/** The short forms of calibers that a hurried clerk writes, which a later correction fixes. */
export const CALIBER_SHORTHAND: Readonly<Record<string, string>> = {
  '9mm Luger': '9mm',
  '5.56x45mm NATO': '5.56',
  '.357 Magnum': '.357',
  '.22 LR': '22LR',
  '.380 ACP': '380',
  '.45 ACP': '45',
  '12 GA': '12',
  '6.5 Creedmoor': '6.5CM',
  '.308 Winchester': '308',
  '.30-30 Winchester': '30-30',
  '.30-06 Springfield': '30-06',
};

/** A licensee the dealer buys from or transfers to, with its license and premises. */
export interface Licensee {
  readonly name: string;
  readonly ffl_license: string;
  readonly address: string;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
}

/** Wholesale distributors (invented). */
export const DISTRIBUTORS: readonly Licensee[] = [
  {
    name: 'Great Plains Sporting Distributors, Inc.',
    ffl_license: '5-48-113-01-7D-02741',
    address: '4100 Industrial Pkwy',
    city: 'Grand Prairie',
    state: 'TX',
    zip: '75050',
  },
  {
    name: 'Tri-State Outdoor Supply LLC',
    ffl_license: '8-21-067-01-8F-05218',
    address: '220 Commerce Dr',
    city: 'Florence',
    state: 'KY',
    zip: '41042',
  },
  {
    name: 'Appalachian Arms Wholesale Co.',
    ffl_license: '1-55-093-01-7K-01186',
    address: '18 Ridgeview Rd',
    city: 'Johnson City',
    state: 'TN',
    zip: '37601',
  },
  {
    name: 'Gulf Coast Firearms Distribution LLC',
    ffl_license: '4-59-021-01-8B-03907',
    address: '9700 Airline Hwy',
    city: 'Baton Rouge',
    state: 'LA',
    zip: '70815',
  },
  {
    name: 'Frontier Range Supply Co.',
    ffl_license: '9-86-013-01-7H-04452',
    address: '3350 W Overland Rd',
    city: 'Meridian',
    state: 'ID',
    zip: '83642',
  },
  {
    name: 'Keystone Firearms & Ammunition Supply',
    ffl_license: '8-23-071-01-8C-06630',
    address: '1500 Lititz Pike',
    city: 'Lancaster',
    state: 'PA',
    zip: '17601',
  },
];

/** Other dealers, which sell or trade a firearm to the demo dealer or take one by transfer (invented). */
export const DEALERS: readonly Licensee[] = [
  {
    name: 'Riverbend Guns & Tackle',
    ffl_license: '3-43-105-01-7J-08813',
    address: '715 River Rd',
    city: 'Columbia',
    state: 'MO',
    zip: '65201',
  },
  {
    name: 'Summit Shooting Sports LLC',
    ffl_license: '9-84-031-01-8E-09271',
    address: '2401 N Main St',
    city: 'Logan',
    state: 'UT',
    zip: '84341',
  },
  {
    name: 'Old Mill Firearms',
    ffl_license: '1-54-019-01-7L-07735',
    address: '96 Mill St',
    city: 'Winchester',
    state: 'VA',
    zip: '22601',
  },
];

const FIRST_NAMES = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'Michael',
  'Linda',
  'David',
  'Barbara',
  'William',
  'Susan',
  'Richard',
  'Jessica',
  'Joseph',
  'Karen',
  'Thomas',
  'Sarah',
  'Daniel',
  'Nancy',
  'Matthew',
  'Lisa',
  'Anthony',
  'Sandra',
  'Mark',
  'Ashley',
  'Steven',
  'Emily',
  'Andrew',
  'Donna',
  'Joshua',
  'Michelle',
  'Kevin',
  'Carol',
  'Brian',
  'Amanda',
  'Timothy',
  'Melissa',
  'Ronald',
  'Deborah',
  'Jason',
  'Rebecca',
];
const LAST_NAMES = [
  'Anderson',
  'Baker',
  'Carter',
  'Dawson',
  'Ellis',
  'Foster',
  'Garrison',
  'Hughes',
  'Irwin',
  'Jennings',
  'Keller',
  'Lawson',
  'Mercer',
  'Nolan',
  'Osborne',
  'Parker',
  'Quinn',
  'Reyes',
  'Sullivan',
  'Tucker',
  'Underwood',
  'Vaughn',
  'Whitaker',
  'Yates',
  'Zimmerman',
  'Bradley',
  'Caldwell',
  'Dalton',
  'Fletcher',
  'Hammond',
];
const STREETS = [
  'Oak St',
  'Maple Ave',
  'Cedar Ln',
  'Pine Ridge Rd',
  'Elm St',
  'Hillcrest Dr',
  'Willow Way',
  'Lakeview Dr',
  'Sunset Blvd',
  'Church St',
  'County Road 12',
  'Meadow Ln',
  'Highland Ave',
  'Park Pl',
  'Walnut St',
];
/** Towns of the demo dealer's area, with their ZIP codes. */
const TOWNS: readonly { city: string; state: string; zip: string }[] = [
  { city: 'Knoxville', state: 'TN', zip: '37918' },
  { city: 'Maryville', state: 'TN', zip: '37803' },
  { city: 'Sevierville', state: 'TN', zip: '37862' },
  { city: 'Oak Ridge', state: 'TN', zip: '37830' },
  { city: 'Lenoir City', state: 'TN', zip: '37771' },
  { city: 'Morristown', state: 'TN', zip: '37814' },
  { city: 'Clinton', state: 'TN', zip: '37716' },
  { city: 'Athens', state: 'TN', zip: '37303' },
];

/** A private person with an address in the dealer's area. */
export interface Person {
  readonly name: string;
  readonly address: string;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
}

/** A person of the dealer's area, invented. */
export function randomPerson(random: Random): Person {
  const town = pick(random, TOWNS);
  return {
    name: `${pick(random, FIRST_NAMES)} ${pick(random, LAST_NAMES)}`,
    address: `${between(random, 100, 9_899)} ${pick(random, STREETS)}`,
    ...town,
  };
}

const TOTAL_WEIGHT = FIREARMS.reduce((sum, firearm) => sum + firearm.weight, 0);

/** A model picked by how often dealers receive it. */
export function randomFirearm(random: Random): FirearmModel {
  let left = random() * TOTAL_WEIGHT;
  for (const firearm of FIREARMS) {
    left -= firearm.weight;
    if (left < 0) return firearm;
  }
  return FIREARMS[FIREARMS.length - 1]!;
}

/** A serial number of a model's shape. */
export function randomSerial(random: Random, firearm: FirearmModel): string {
  let serial = '';
  for (const character of firearm.serial)
    serial +=
      character === 'A' ? randomLetters(random, 1) : character === '0' ? String(between(random, 0, 9)) : character;
  return serial;
}

/** An amount in dollars and cents from `min` to `max` dollars. */
export function randomAmount(random: Random, min: number, max: number): number {
  return Math.round((min + random() * (max - min)) * 100) / 100;
}

/**
 * A new firearm made abroad, received from a distributor into `book` on `date`: what
 * `fflkit-sandbox trigger` records. Its importer and country of origin make it valid for
 * every eligible account type, importers included.
 */
export function importedReceipt(random: Random, book: string, date: string): ReceiptCreate {
  const firearm = pick(
    random,
    FIREARMS.filter((model) => model.importer !== undefined),
  );
  const distributor = pick(random, DISTRIBUTORS);
  return {
    book,
    serial_number: randomSerial(random, firearm),
    manufacturer: firearm.manufacturer,
    importer: firearm.importer!,
    country_of_origin: firearm.country!,
    model: firearm.model,
    type: firearm.type,
    caliber: firearm.caliber,
    receipt_date: date,
    purchase_amount: randomAmount(random, firearm.cost[0], firearm.cost[1]),
    received_from: distributor.name,
    ffl_license: distributor.ffl_license,
  };
}
