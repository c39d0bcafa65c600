import { describe, expect, it } from 'vitest';
import { CliUsageError, parseCliArguments } from '../../src/cli/arguments';

const cwd = '/work/project';

describe('parseCliArguments(args)', () => {
  it('defaults to port 4010 on 127.0.0.1 with ./.boundbook/sandbox.json', () => {
    expect(parseCliArguments([], cwd)).toEqual({
      kind: 'start',
      port: 4010,
      host: '127.0.0.1',
      data: '/work/project/.boundbook/sandbox.json',
      rateLimit: undefined,
      maxAccounts: undefined,
      allowedHosts: [],
      cors: [],
      quiet: false,
    });
  });

  it('reads every flag, in both --flag value and --flag=value forms', () => {
    expect(
      parseCliArguments(
        [
          '--port=0',
          '--host',
          '0.0.0.0',
          '--data',
          'state/db.json',
          '--rate-limit',
          '0',
          '--max-accounts',
          '50',
          '--allowed-hosts',
          'ci-sandbox,.lan.example',
          '--allowed-hosts=other',
          '--cors',
          'http://localhost:5173/',
          '--quiet',
        ],
        cwd,
      ),
    ).toEqual({
      kind: 'start',
      port: 0,
      host: '0.0.0.0',
      data: '/work/project/state/db.json',
      rateLimit: 0,
      maxAccounts: 50,
      allowedHosts: ['ci-sandbox', '.lan.example', 'other'],
      cors: ['http://localhost:5173'],
      quiet: true,
    });
  });

  it('keeps the state in memory with --memory', () => {
    expect(parseCliArguments(['--memory'], cwd)).toMatchObject({ kind: 'start', data: undefined });
  });

  it.each([['--help'], ['-h'], ['--port', 'nope', '--help']])('asks for help with %s', (...args) => {
    expect(parseCliArguments(args, cwd)).toEqual({ kind: 'help' });
  });

  it.each([
    [['--verbose'], /Unknown option '--verbose'/],
    [['extra'], /Unexpected argument 'extra'/],
    [['--port'], /--port/],
    [['--port', 'abc'], /--port must be a whole number from 0 to 65535, not "abc"/],
    [['--port', '65536'], /--port must be a whole number from 0 to 65535/],
    [['--port', '-1'], /--port/],
    [['--port', '1.5'], /--port must be a whole number/],
    [['--rate-limit', 'many'], /--rate-limit must be a whole number 0 or more, not "many"/],
    [['--memory', '--data', 'x.json'], /--memory and --data exclude each other/],
    [['--data='], /--data needs a file path/],
    [['--host='], /--host needs an address/],
    [['--quiet=yes'], /--quiet/],
    [['--max-accounts', '0'], /--max-accounts must be a whole number of 1 or more, not "0"/],
    [['--allowed-hosts', 'a,,b'], /--allowed-hosts needs a name after it/],
    [['--cors', 'localhost:5173'], /--cors takes an origin, such as http:\/\/localhost:5173/],
    [['--cors', 'http://a.example/path'], /--cors takes an origin/],
  ])('throws a CliUsageError for %j', (args, message) => {
    expect(() => parseCliArguments(args, cwd)).toThrow(CliUsageError);
    expect(() => parseCliArguments(args, cwd)).toThrow(message);
  });
});
