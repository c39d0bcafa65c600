import { execFileSync } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '@fflkit/sandbox-core';
import type { SandboxFixtures } from '@fflkit/types';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixturesFormatOf, formatFixtures } from '@fflkit/sandbox-core/fixtures-file';
import { FixturesError, readFixturesFile, refusedFixtures, writeFixturesFile } from '../src/fixtures-file';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fflkit-fixtures-file-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const file: SandboxFixtures = {
  accounts: [
    {
      name: 'Example Firearms Retail LLC',
      tokens: [{ token: 'sbx_ci0000000000000000000000000001' }],
      receipts: [
        {
          book: 'Main',
          serial_number: '0123',
          manufacturer: 'Example Arms',
          model: 'Model 19',
          type: 'Pistol',
          caliber: '9mm',
          receipt_date: '2025-03-03',
          received_from: 'Example Distributors Inc.',
          zip: '62701',
          address: 'yes',
          city: 'null',
          state: 'IL',
        },
      ],
    },
  ],
};

async function written(name: string, text: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

async function failure(path: string): Promise<FixturesError> {
  const error = await readFixturesFile(path).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(FixturesError);
  return error as FixturesError;
}

describe('readFixturesFile(path)', () => {
  it.each([
    ['fixtures.json', JSON.stringify(file)],
    ['fixtures.yaml', `# a comment\n${JSON.stringify(file)}`],
    [
      'fixtures.YML',
      'accounts:\n  - name: Example Firearms Retail LLC\n    tokens:\n      - token: sbx_ci0000000000000000000000000001\n',
    ],
    ['fixtures', JSON.stringify(file)],
    ['fixtures.txt', 'accounts: []\n'],
    ['bom.json', `\uFEFF${JSON.stringify(file)}`],
  ])('reads %s', async (name, text) => {
    const parsed = await readFixturesFile(await written(name, text));
    expect(parsed).toEqual(
      name.endsWith('.YML')
        ? {
            accounts: [
              { name: 'Example Firearms Retail LLC', tokens: [{ token: 'sbx_ci0000000000000000000000000001' }] },
            ],
          }
        : name === 'fixtures.txt'
          ? { accounts: [] }
          : file,
    );
  });

  it('reads YAML as YAML 1.2 does: a date stays text, an unquoted ZIP code is a number the loader refuses', async () => {
    const parsed = await readFixturesFile(
      await written('dates.yaml', 'accounts:\n  - receipts:\n      - receipt_date: 2025-03-03\n        zip: 62701\n'),
    );
    expect(parsed).toEqual({ accounts: [{ receipts: [{ receipt_date: '2025-03-03', zip: 62701 }] }] });
  });

  it('rejects a missing file, naming it and the working directory', async () => {
    const error = await failure(join(dir, 'missing.json'));
    expect(error.message).toBe(
      `[@fflkit/sandbox] there is no fixtures file ${join(dir, 'missing.json')}: check the path, which is taken from the working directory (${process.cwd()})`,
    );
    expect([error.file, error.errors]).toEqual([join(dir, 'missing.json'), {}]);
  });

  it('rejects a folder', async () => {
    await mkdir(join(dir, 'folder.json'));
    expect((await failure(join(dir, 'folder.json'))).message).toBe(
      `[@fflkit/sandbox] ${join(dir, 'folder.json')} is a folder, not a fixtures file: give the path of a .json, .yaml or .yml file`,
    );
  });

  it.each([
    ['empty.json', '', /is empty: write an object with a list of accounts in it$/],
    ['blank.yaml', '  \n\n', /is empty/],
    ['broken.json', '{"accounts": [', /is not valid JSON: /],
    [
      'broken.yaml',
      'accounts: [unclosed\n',
      /is not valid YAML: Flow sequence .* at line 2, column 1:\n\naccounts: \[unclosed\n\n\^$/,
    ],
    [
      'twice.yaml',
      'accounts: []\naccounts: []\n',
      /has a key given twice: accounts is given twice in one object \(again at line 2, column 1\): give each key once\.$/,
    ],
    [
      'list.yml',
      '- one\n- two\n',
      /holds a list, not a fixtures file: write an object with a list of accounts, as @fflkit\/types\/fixtures.schema.json describes it$/,
    ],
    ['null.json', 'null', /holds nothing, not a fixtures file/],
    ['number.json', '42', /holds a number, not a fixtures file/],
    [
      'binary.bin',
      Buffer.from([0x00, 0x01, 0xff, 0x41]),
      /holds a string \(read as YAML, as its name does not end in \.json and it does not begin with \{\), not a fixtures file/,
    ],
  ])('rejects %s, saying what is wrong', async (name, text, message) => {
    const path = await written(name, text);
    const error = await failure(path);
    expect(error.message.startsWith(`[@fflkit/sandbox] the fixtures file ${path} `)).toBe(true);
    expect(error.message).toMatch(message);
  });
});

describe('a key given twice in one object', () => {
  it.each([
    ['twice.json', '{"accounts": [{"name": "A",\n  "tokens": [], "name": "B"}]}', 'line 2, column 17'],
    ['twice.yaml', 'accounts:\n  - name: A\n    tokens: []\n    name: B\n', 'line 4, column 5'],
  ])('refuses %s, naming the key by its path, as it names every fault', async (name, text, where) => {
    const path = await written(name, text);
    const error = await failure(path);
    const fault = `is given twice in one object (again at ${where}): give each key once.`;
    expect(error.message).toBe(
      `[@fflkit/sandbox] the fixtures file ${path} has a key given twice: accounts[0].name ${fault}`,
    );
    expect(error.errors).toEqual({ 'accounts[0].name': [fault] });
  });
});

describe('fixturesFormatOf(path)', () => {
  it.each([
    ['a.json', 'json'],
    ['a.yaml', 'yaml'],
    ['a.yml', 'yaml'],
    ['A.YAML', 'yaml'],
    ['a.txt', undefined],
    ['yaml', undefined],
  ])('names %s %s', (path, format) => {
    expect(fixturesFormatOf(path)).toBe(format);
  });
});

describe('formatFixtures(fixtures, format) and writeFixturesFile(path, text)', () => {
  it('writes JSON indented by two spaces, and YAML that any reader takes back as the same strings', async () => {
    expect(formatFixtures(file, 'json')).toBe(`${JSON.stringify(file, null, 2)}\n`);
    const yaml = formatFixtures(file, 'yaml');
    // A YAML 1.1 reader would take these for a date, an octal number, yes/null words: they are quoted.
    for (const quoted of ['"2025-03-03"', '"0123"', '"62701"', '"yes"', '"null"']) expect(yaml).toContain(quoted);
    expect(parse(yaml)).toEqual(file);
    expect(parse(yaml, { version: '1.1' })).toEqual(file);
    expect(await readFixturesFile(await written('again.yaml', yaml))).toEqual(file);
  });

  it('writes the file readable by its owner alone', async () => {
    const path = join(dir, 'secret.json');
    await writeFixturesFile(path, '{}');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('makes a file already there readable by its owner alone, and replaces its text', async () => {
    const path = join(dir, 'shared.yaml');
    await writeFile(path, 'a much longer text than the new one', { mode: 0o644 });
    await chmod(path, 0o644);
    await writeFixturesFile(path, '{}');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readFile(path, 'utf8')).toBe('{}');
  });

  it('replaces a symbolic link or a FIFO at the path rather than write through it, and leaves nothing beside it', async () => {
    const elsewhere = join(dir, 'elsewhere.txt');
    await writeFile(elsewhere, 'untouched', { mode: 0o644 });
    const link = join(dir, 'link.yaml');
    await symlink(elsewhere, link);
    await writeFixturesFile(link, '{}');
    expect(await readFile(elsewhere, 'utf8')).toBe('untouched');
    expect((await lstat(link)).isFile()).toBe(true);
    const fifo = join(dir, 'fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    await writeFixturesFile(fifo, '{}');
    expect((await lstat(fifo)).isFile()).toBe(true);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('refusedFixtures(error, file)', () => {
  it('lists every fault of a 422 on a line of its own, under its path, and keeps them in errors', () => {
    const errors = {
      'accounts[0].tokens[0].token': ['must be sbx_ followed by 20 to 128 letters and digits.'],
      'accounts[0].receipts[2].zip': ['The zip field must be a string.', 'Another.'],
    };
    const error = refusedFixtures(new ApiError(422, { message: 'x', errors }), '/ci/fixtures.yaml');
    expect(error.message).toBe(
      '[@fflkit/sandbox] the fixtures file /ci/fixtures.yaml has 3 faults, so nothing was loaded; fix them and start again:\n' +
        '  accounts[0].tokens[0].token: must be sbx_ followed by 20 to 128 letters and digits.\n' +
        '  accounts[0].receipts[2].zip: The zip field must be a string.\n' +
        '  accounts[0].receipts[2].zip: Another.',
    );
    expect([error.name, error.file, error.errors]).toEqual(['FixturesError', '/ci/fixtures.yaml', errors]);
  });

  it('words a single fault, fixtures given as an object, and the account limit', () => {
    const one = refusedFixtures(new ApiError(422, { message: 'x', errors: { accounts: ['is required.'] } }), undefined);
    expect(one.message).toBe(
      '[@fflkit/sandbox] the fixtures have a fault, so nothing was loaded; fix it and start again:\n  accounts: is required.',
    );
    const full = refusedFixtures(
      new ApiError(409, { message: 'The sandbox holds its limit of 1 account.' }),
      '/f.json',
    );
    expect(full.message).toBe(
      '[@fflkit/sandbox] the fixtures file /f.json could not be loaded: The sandbox holds its limit of 1 account.',
    );
  });
});
