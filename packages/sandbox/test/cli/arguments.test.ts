import { describe, expect, it } from 'vitest';
import { CliUsageError, parseCliArguments, START_OPTIONS, SUBCOMMANDS, usageText } from '../../src/cli/arguments';
import { formatSubcommandHelp } from '../../src/cli/subcommand';

const cwd = '/work/project';
const parse = (args: readonly string[], env: Record<string, string> = {}) => parseCliArguments(args, env, cwd);

const defaults = {
  kind: 'start',
  port: 4010,
  host: '127.0.0.1',
  data: '/work/project/.fflkit/sandbox.json',
  flush: true,
  compactAtBytes: undefined,
  rateLimit: undefined,
  maxAccounts: undefined,
  allowedHosts: [],
  cors: [],
  fixtures: undefined,
  demoSeed: undefined,
  quiet: false,
};

describe('parseCliArguments(args, env, cwd)', () => {
  it('defaults to port 4010 on 127.0.0.1 with ./.fflkit/sandbox.json', () => {
    expect(parse([])).toEqual(defaults);
  });

  it('reads every flag, in both --flag value and --flag=value forms', () => {
    expect(
      parse([
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
        '--fixtures',
        'test/fixtures.yaml',
        '--demo',
        '--seed',
        '42',
        '--quiet',
        '--no-flush',
      ]),
    ).toEqual({
      kind: 'start',
      port: 0,
      host: '0.0.0.0',
      data: '/work/project/state/db.json',
      flush: false,
      compactAtBytes: undefined,
      rateLimit: 0,
      maxAccounts: 50,
      allowedHosts: ['ci-sandbox', '.lan.example', 'other'],
      cors: ['http://localhost:5173'],
      fixtures: '/work/project/test/fixtures.yaml',
      demoSeed: 42,
      quiet: true,
    });
  });

  it('reads every option from its FFLKIT_SANDBOX_ variable when the flag is not given', () => {
    expect(
      parse([], {
        FFLKIT_SANDBOX_PORT: '5000',
        FFLKIT_SANDBOX_HOST: '0.0.0.0',
        FFLKIT_SANDBOX_DATA: 'ci/db.json',
        FFLKIT_SANDBOX_RATE_LIMIT: '0',
        FFLKIT_SANDBOX_MAX_ACCOUNTS: '7',
        FFLKIT_SANDBOX_ALLOWED_HOSTS: 'sandbox, .ci.example',
        FFLKIT_SANDBOX_CORS: 'http://localhost:5173,http://localhost:3000',
        FFLKIT_SANDBOX_FIXTURES: 'ci/fixtures.json',
        FFLKIT_SANDBOX_DEMO: 'true',
        FFLKIT_SANDBOX_SEED: '9',
        FFLKIT_SANDBOX_QUIET: '1',
        FFLKIT_SANDBOX_NO_FLUSH: '1',
        FFLKIT_SANDBOX_COMPACT_AT_BYTES: '16384',
      }),
    ).toEqual({
      kind: 'start',
      port: 5000,
      host: '0.0.0.0',
      data: '/work/project/ci/db.json',
      flush: false,
      compactAtBytes: 16_384,
      rateLimit: 0,
      maxAccounts: 7,
      allowedHosts: ['sandbox', '.ci.example'],
      cors: ['http://localhost:5173', 'http://localhost:3000'],
      fixtures: '/work/project/ci/fixtures.json',
      demoSeed: 9,
      quiet: true,
    });
    expect(parse([], { FFLKIT_SANDBOX_MEMORY: 'TRUE' })).toMatchObject({ data: undefined });
  });

  it('gives a flag precedence over its variable', () => {
    const env = {
      FFLKIT_SANDBOX_PORT: '5000',
      FFLKIT_SANDBOX_HOST: '0.0.0.0',
      FFLKIT_SANDBOX_ALLOWED_HOSTS: 'from-env',
      FFLKIT_SANDBOX_QUIET: '0',
    };
    expect(parse(['--port', '6000', '--host', '::1', '--allowed-hosts', 'from-flag', '--quiet'], env)).toMatchObject({
      port: 6000,
      host: '::1',
      allowedHosts: ['from-flag'],
      quiet: true,
    });
  });

  it('takes 0 and false in a switch variable as off, and an empty variable as unset', () => {
    expect(
      parse([], { FFLKIT_SANDBOX_MEMORY: '0', FFLKIT_SANDBOX_QUIET: 'False', FFLKIT_SANDBOX_DEMO: 'false' }),
    ).toEqual(defaults);
    expect(parse([], { FFLKIT_SANDBOX_PORT: '', FFLKIT_SANDBOX_DATA: '', FFLKIT_SANDBOX_MEMORY: '' })).toEqual(
      defaults,
    );
  });

  it('lets --data overrule FFLKIT_SANDBOX_MEMORY, and --memory overrule FFLKIT_SANDBOX_DATA', () => {
    expect(parse(['--data', 'x.json'], { FFLKIT_SANDBOX_MEMORY: '1' })).toMatchObject({ data: '/work/project/x.json' });
    expect(parse(['--memory'], { FFLKIT_SANDBOX_DATA: 'x.json' })).toMatchObject({ data: undefined });
  });

  it('keeps the state in memory with --memory', () => {
    expect(parse(['--memory'])).toMatchObject({ kind: 'start', data: undefined });
  });

  it('flushes each write to the disk unless --no-flush or FFLKIT_SANDBOX_NO_FLUSH says otherwise', () => {
    expect(parse([])).toMatchObject({ flush: true });
    expect(parse(['--no-flush'])).toMatchObject({ flush: false });
    expect(parse([], { FFLKIT_SANDBOX_NO_FLUSH: 'true' })).toMatchObject({ flush: false });
    expect(parse([], { FFLKIT_SANDBOX_NO_FLUSH: '0' })).toMatchObject({ flush: true });
    expect(() => parse(['--memory', '--no-flush'])).toThrow(
      new CliUsageError('--no-flush is about writes to the data file, and --memory writes none: give one of them'),
    );
  });

  it('reads the journal size that starts a compaction from FFLKIT_SANDBOX_COMPACT_AT_BYTES alone', () => {
    expect(parse([], { FFLKIT_SANDBOX_COMPACT_AT_BYTES: '' })).toMatchObject({ compactAtBytes: undefined });
    expect(parse([], { FFLKIT_SANDBOX_COMPACT_AT_BYTES: '16384' })).toMatchObject({ compactAtBytes: 16_384 });
    for (const text of ['0', '-5', '1.5', '1e6', 'lots', '99999999999999999999']) {
      expect(() => parse([], { FFLKIT_SANDBOX_COMPACT_AT_BYTES: text }), text).toThrow(
        `FFLKIT_SANDBOX_COMPACT_AT_BYTES must be a whole number of 1 or more, not ${JSON.stringify(text)}`,
      );
    }
  });

  it('gives the demo seed 1 unless --seed says otherwise, and no demo without --demo', () => {
    expect(parse(['--demo'])).toMatchObject({ demoSeed: 1 });
    expect(parse(['--demo', '--seed', '0'])).toMatchObject({ demoSeed: 0 });
    expect(parse([], { FFLKIT_SANDBOX_SEED: '5' })).toMatchObject({ demoSeed: undefined });
  });

  it.each([['--help'], ['-h'], ['--port', 'nope', '--help']])('asks for help with %s', (...args) => {
    expect(parse(args)).toEqual({ kind: 'help', text: usageText });
  });

  it.each([['--version'], ['-v'], ['--memory', '-v']])('asks for the version with %s', (...args) => {
    expect(parse(args)).toEqual({ kind: 'version' });
  });

  it.each([
    [['--verbose'], {}, /Unknown option '--verbose'/],
    [['--port'], {}, /--port/],
    [['--port', 'abc'], {}, /--port must be a whole number from 0 to 65535, not "abc"/],
    [['--port', '65536'], {}, /--port must be a whole number from 0 to 65535/],
    [['--port', '-1'], {}, /--port/],
    [['--port', '1.5'], {}, /--port must be a whole number/],
    [['--rate-limit', 'many'], {}, /--rate-limit must be a whole number 0 or more, not "many"/],
    [['--memory', '--data', 'x.json'], {}, /--memory and --data exclude each other/],
    [['--data='], {}, /--data needs a file path/],
    [['--host='], {}, /--host needs an address/],
    [['--fixtures='], {}, /--fixtures needs the path of a JSON or YAML fixtures file/],
    [['--quiet=yes'], {}, /--quiet/],
    [['--max-accounts', '0'], {}, /--max-accounts must be a whole number of 1 or more, not "0"/],
    [['--allowed-hosts', 'a,,b'], {}, /--allowed-hosts needs a name after it/],
    [['--cors', 'localhost:5173'], {}, /--cors takes an origin, such as http:\/\/localhost:5173/],
    [['--cors', 'http://a.example/path'], {}, /--cors takes an origin/],
    [['--seed', '3'], {}, /--seed chooses the demo of --demo: pass --demo too/],
    [['--demo', '--seed', '4294967296'], {}, /--seed must be a whole number from 0 to 4294967295/],
    [[], { FFLKIT_SANDBOX_PORT: 'abc' }, /^FFLKIT_SANDBOX_PORT must be a whole number from 0 to 65535, not "abc"$/],
    [[], { FFLKIT_SANDBOX_QUIET: 'yes' }, /^FFLKIT_SANDBOX_QUIET must be 1, 0, true or false, not "yes"$/],
    [[], { FFLKIT_SANDBOX_MEMORY: 'on' }, /^FFLKIT_SANDBOX_MEMORY must be 1, 0, true or false, not "on"$/],
    [
      [],
      { FFLKIT_SANDBOX_MEMORY: '1', FFLKIT_SANDBOX_DATA: 'x.json' },
      /FFLKIT_SANDBOX_MEMORY and FFLKIT_SANDBOX_DATA exclude each other/,
    ],
    [[], { FFLKIT_SANDBOX_CORS: 'localhost' }, /^FFLKIT_SANDBOX_CORS takes an origin/],
    [[], { FFLKIT_SANDBOX_MAX_ACCOUNTS: '0' }, /^FFLKIT_SANDBOX_MAX_ACCOUNTS must be a whole number of 1 or more/],
    [[], { FFLKIT_SANDBOX_ALLOWED_HOSTS: 'a,' }, /^FFLKIT_SANDBOX_ALLOWED_HOSTS needs a name after it/],
  ])('throws a CliUsageError for %j with %j', (args, env: Record<string, string>, message) => {
    expect(() => parse(args, env)).toThrow(CliUsageError);
    expect(() => parse(args, env)).toThrow(message);
  });

  it('passes over the separator that `pnpm start -- ...` and `npm start -- ...` put first, and no other', () => {
    expect(parse(['--', '--port', '4020'])).toEqual({ ...defaults, port: 4020 });
    expect(parse(['--', 'tail', '--url', 'http://127.0.0.1:5000']).kind).toBe('subcommand');
    expect(() => parse(['--port', '4020', '--', '--memory'])).toThrow("Unexpected argument '--memory'");
  });

  it('reads a subcommand by its name, with its options from flags and variables', () => {
    const command = parse(['trigger', 'receipt.created', '--url', 'http://127.0.0.1:5000'], {
      FFLKIT_SANDBOX_TOKEN: 'sbx_env',
    });
    expect(command.kind).toBe('subcommand');
    if (command.kind !== 'subcommand') return;
    expect(command.command.name).toBe('trigger');
    expect(command.options.positionals).toEqual(['receipt.created']);
    expect(command.options.values.get('token')).toEqual({ value: 'sbx_env', source: 'FFLKIT_SANDBOX_TOKEN' });
    expect(command.options.values.get('url')).toEqual({ value: 'http://127.0.0.1:5000', source: '--url' });
  });

  it.each(SUBCOMMANDS.map(({ name }) => [name]))('answers %s --help with its own help', (name) => {
    const command = SUBCOMMANDS.find((candidate) => candidate.name === name)!;
    expect(parse([name, '--help'])).toEqual({ kind: 'help', text: formatSubcommandHelp(command) });
    expect(parse([name, '-h'])).toEqual({ kind: 'help', text: formatSubcommandHelp(command) });
  });

  it.each([
    [
      ['trigr'],
      /^Unknown command 'trigr': the commands are export, trigger, tail, check-receiver, choices, proxy, conformance$/,
      undefined,
    ],
    [
      ['tail', '--bogus'],
      /Unknown option '--bogus'/,
      'Usage: fflkit-sandbox tail --token <token> [--url <url>] [--reconnect <seconds>]',
    ],
    [
      ['export', 'extra'],
      /Unexpected argument 'extra'/,
      'Usage: fflkit-sandbox export --token <token> [--url <url>] [--out <file>]',
    ],
    [
      ['trigger', 'ping', 'pong'],
      /Unexpected argument 'pong'/,
      'Usage: fflkit-sandbox trigger <event> --token <token> [--url <url>] [--wait <seconds>]',
    ],
  ])('throws a CliUsageError for the subcommand line %j, with its usage', (args, message, usage) => {
    let thrown: unknown;
    try {
      parse(args);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CliUsageError);
    expect((thrown as CliUsageError).message).toMatch(message);
    expect((thrown as CliUsageError).usage).toBe(usage);
  });
});

describe('the help texts', () => {
  it('list every option of the start with its variable, and every subcommand', () => {
    expect(usageText).toMatch(/^Usage: fflkit-sandbox \[options\]\n {7}fflkit-sandbox <command> \[options\]/);
    for (const option of START_OPTIONS) {
      expect(usageText).toContain(`--${option.flag}`);
      expect(usageText).toContain(`(env ${option.variable!})`);
    }
    expect(usageText).toContain('--version, -v');
    for (const { name, summary } of SUBCOMMANDS) expect(usageText).toContain(`  ${name.padEnd(16)}${summary}\n`);
  });

  it('give each subcommand a usage line, its options with their variables, and --help', () => {
    const trigger = formatSubcommandHelp(SUBCOMMANDS.find(({ name }) => name === 'trigger')!);
    expect(trigger).toMatch(/^Usage: fflkit-sandbox trigger <event> --token <token>/);
    for (const event of ['receipt.created', 'receipt.updated', 'receipt.disposed', 'receipt.deleted', 'ping'])
      expect(trigger).toContain(`  ${event}`);
    expect(trigger).toContain('(env FFLKIT_SANDBOX_TOKEN)');
    expect(trigger).toContain('(env FFLKIT_SANDBOX_URL)');
    expect(trigger).toContain('--help, -h');
  });

  it('keep every line within 100 characters', () => {
    const texts = [usageText, ...SUBCOMMANDS.map(formatSubcommandHelp)];
    for (const line of texts.flatMap((text) => text.split('\n'))) expect(line.length, line).toBeLessThanOrEqual(100);
  });
});
