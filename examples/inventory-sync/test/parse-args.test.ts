import { describe, expect, it } from 'vitest';
import { parseArgs } from '../src/parse-args';
import { UsageError } from '../src/usage-error';

const env = { FFLKIT_TOKEN: 'sbx_from_env' };

describe('parseArgs(args, env)', () => {
  it('takes the token from FFLKIT_TOKEN and defaults to the local sandbox, bound-book.csv and .sync-checkpoint.json', () => {
    expect(parseArgs([], env)).toEqual({
      kind: 'sync',
      baseUrl: 'http://127.0.0.1:4010/rest/v1',
      token: 'sbx_from_env',
      out: 'bound-book.csv',
      checkpoint: '.sync-checkpoint.json',
      book: undefined,
    });
  });

  it('prefers the flags to the environment', () => {
    const command = parseArgs(
      [
        '--base-url',
        'https://logbook.example.com/rest/v1/',
        '--token',
        'sbx_flag',
        '--out',
        '-',
        '--checkpoint',
        'c.json',
        '--book',
        'Main',
      ],
      { ...env, FFLKIT_BASE_URL: 'http://127.0.0.1:9/rest/v1' },
    );

    expect(command).toEqual({
      kind: 'sync',
      baseUrl: 'https://logbook.example.com/rest/v1',
      token: 'sbx_flag',
      out: '-',
      checkpoint: 'c.json',
      book: 'Main',
    });
  });

  it('skips the -- that `pnpm start -- ...` passes on', () => {
    expect(parseArgs(['--', '--out', 'book.csv'], env)).toMatchObject({ kind: 'sync', out: 'book.csv' });
  });

  it('takes the base URL from FFLKIT_BASE_URL', () => {
    expect(parseArgs([], { ...env, FFLKIT_BASE_URL: 'http://127.0.0.1:5000/rest/v1' })).toMatchObject({
      baseUrl: 'http://127.0.0.1:5000/rest/v1',
    });
  });

  it('answers --help and -h with the help, whatever else is missing', () => {
    expect(parseArgs(['--help'], {})).toEqual({ kind: 'help' });
    expect(parseArgs(['-h'], {})).toEqual({ kind: 'help' });
  });

  it('throws a UsageError that says where to get a token when there is none', () => {
    expect(() => parseArgs([], {})).toThrow(UsageError);
    expect(() => parseArgs([], { FFLKIT_TOKEN: '' })).toThrow('no API token: set FFLKIT_TOKEN or pass --token');
  });

  it.each([
    ['not a url', 'is not a URL'],
    ['ftp://127.0.0.1/rest/v1', 'is not http(s)'],
    ['http://127.0.0.1:4010', 'does not end in /rest/v1'],
    ['http://127.0.0.1:4010/rest/v1?x=1', 'does not end in /rest/v1'],
  ])('throws a UsageError for the base URL %j', (baseUrl, message) => {
    expect(() => parseArgs(['--base-url', baseUrl], env)).toThrow(message);
  });

  it('throws a UsageError for an unknown flag, pointing at --help', () => {
    expect(() => parseArgs(['--output', 'x.csv'], env)).toThrow(/Unknown option '--output'.*see --help/);
  });

  it('throws a UsageError for an empty file name', () => {
    expect(() => parseArgs(['--out', ''], env)).toThrow('--out needs a value');
  });
});
