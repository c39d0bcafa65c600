import { parseArgs } from 'node:util';

// The options of a command of `fflkit-sandbox`, as one table per command: each flag with its
// environment variable, its kind and its help. The same table reads the command line and the
// environment (a flag wins over its variable) and writes the options part of the command's
// `--help`, so the two never disagree.

/**
 * The command line is wrong: an unknown command or flag, a missing or malformed value (on the
 * command line or in a variable), or options that contradict each other. The CLI prints the
 * message with the usage and exits with code 2.
 */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
  /** The usage line of the command concerned; `undefined` for the whole CLI's. */
  readonly usage: string | undefined;

  constructor(message: string, usage?: string, options?: ErrorOptions) {
    super(message, options);
    this.usage = usage;
  }
}

/** One option of a command. */
export interface CliOption {
  /** The long flag without its dashes: `port` for `--port`. */
  readonly flag: string;
  /** A one-letter short flag, such as `h` for `-h`. */
  readonly short?: string;
  /** `value` takes one value; `list` takes comma-separated values and may be given more than once; `switch` takes none. */
  readonly kind: 'value' | 'list' | 'switch';
  /** The environment variable read when the flag is not given, such as `FFLKIT_SANDBOX_PORT`. */
  readonly variable?: string;
  /** What the value is, as the help shows it: `<number>`. */
  readonly placeholder?: string;
  /** The help, one line per element. */
  readonly help: readonly string[];
}

/** A value read for an option, with where it came from, for messages that name the right one. */
export interface OptionValue<T> {
  readonly value: T;
  /** `--port` when it came from the command line, `FFLKIT_SANDBOX_PORT` when from the environment. */
  readonly source: string;
}

/** What {@link readOptions} read: each option given (by flag or variable) and the positionals. */
export interface ReadOptions {
  /** By flag name; absent when given neither on the command line nor in the environment. */
  readonly values: ReadonlyMap<string, OptionValue<string | boolean | readonly string[]>>;
  readonly positionals: readonly string[];
}

/**
 * Reads a command's options from its arguments and, for each flag not given, from its
 * environment variable (an empty variable counts as unset). A switch's variable takes `1`,
 * `0`, `true` or `false` (in any case); a list's variable is comma-separated. Throws a
 * {@link CliUsageError} for an unknown flag, a flag without its value, a switch given a value,
 * an unexpected positional or a switch variable of another value.
 */
export function readOptions(
  options: readonly CliOption[],
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  positionals = 0,
): ReadOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: positionals > 0,
      options: Object.fromEntries(
        options.map((option) => [
          option.flag,
          {
            type: option.kind === 'switch' ? 'boolean' : 'string',
            ...(option.kind === 'list' && { multiple: true }),
            ...(option.short !== undefined && { short: option.short }),
          },
        ]),
      ) as Record<string, { type: 'boolean' | 'string'; multiple?: boolean; short?: string }>,
    });
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error), undefined, { cause: error });
  }
  if (parsed.positionals.length > positionals) {
    throw new CliUsageError(`Unexpected argument '${parsed.positionals[positionals]}'`);
  }
  const values = new Map<string, OptionValue<string | boolean | readonly string[]>>();
  for (const option of options) {
    const given = parsed.values[option.flag];
    if (given !== undefined) {
      values.set(option.flag, { value: given as string | boolean | readonly string[], source: `--${option.flag}` });
      continue;
    }
    const text = option.variable === undefined ? undefined : env[option.variable];
    if (text === undefined || text === '') continue;
    const source = option.variable!;
    values.set(option.flag, {
      value: option.kind === 'switch' ? switchValue(source, text) : option.kind === 'list' ? [text] : text,
      source,
    });
  }
  return { values, positionals: parsed.positionals };
}

function switchValue(variable: string, text: string): boolean {
  const normal = text.trim().toLowerCase();
  if (normal === '1' || normal === 'true') return true;
  if (normal === '0' || normal === 'false') return false;
  throw new CliUsageError(`${variable} must be 1, 0, true or false, not ${JSON.stringify(text)}`);
}

/** The width of the flags' column in the help, after its two spaces of indent. */
const FLAG_COLUMN = 25;

/**
 * The options part of a command's help: each flag with its placeholder, its help, and the
 * variable it is also read from.
 */
export function formatOptions(options: readonly CliOption[]): string {
  const lines: string[] = [];
  for (const option of options) {
    const names = `--${option.flag}${option.placeholder === undefined ? '' : ` ${option.placeholder}`}${option.short === undefined ? '' : `, -${option.short}`}`;
    const help = [...option.help];
    if (option.variable !== undefined) help.push(`(env ${option.variable})`);
    const [first = '', ...rest] = help;
    if (names.length < FLAG_COLUMN - 1) lines.push(`  ${names.padEnd(FLAG_COLUMN)}${first}`);
    else lines.push(`  ${names}`, `  ${''.padEnd(FLAG_COLUMN)}${first}`);
    for (const line of rest) lines.push(`  ${''.padEnd(FLAG_COLUMN)}${line}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A text value of an option, or `undefined` when it was not given. */
export function textOf(read: ReadOptions, flag: string): OptionValue<string> | undefined {
  const found = read.values.get(flag);
  return found === undefined || typeof found.value !== 'string' ? undefined : (found as OptionValue<string>);
}

/** Whether a switch is on: given on the command line, or its variable true. */
export function switchOf(read: ReadOptions, flag: string): boolean {
  return read.values.get(flag)?.value === true;
}

/**
 * The entries of a list option, each value split at its commas and trimmed; an empty entry is
 * a {@link CliUsageError}.
 */
export function listOf(read: ReadOptions, flag: string): string[] {
  const found = read.values.get(flag);
  if (found === undefined) return [];
  const entries = (found.value as readonly string[]).flatMap((value) => value.split(',')).map((entry) => entry.trim());
  if (entries.some((entry) => entry === '')) {
    throw new CliUsageError(`${found.source} needs a name after it, and no empty entry between commas`);
  }
  return entries;
}

/**
 * A whole number from `min` to `max`, read from an option's text; `fallback` when the option
 * was not given. A malformed or out-of-range value is a {@link CliUsageError} naming its source.
 */
export function wholeNumberOf(
  found: OptionValue<string> | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (found === undefined) return fallback;
  const { value, source } = found;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    const range =
      max !== Number.MAX_SAFE_INTEGER ? `from ${min} to ${max}` : min === 0 ? '0 or more' : `of ${min} or more`;
    throw new CliUsageError(`${source} must be a whole number ${range}, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}
