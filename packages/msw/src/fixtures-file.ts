import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { MockBoundBookError } from './errors';

// A fixtures file on disk, read when the mock is made: the Node build's own, so that neither
// node:fs nor the YAML parser is ever part of the web build.

/**
 * The parsed content of the fixtures file at `path` (relative to the working directory): JSON
 * for `.json`, YAML for `.yaml` and `.yml`. Throws a `TypeError` for another extension, an
 * `Error` naming the file when it cannot be read, and a {@link MockBoundBookError} (422, the
 * fault under `errors.body`, as `POST /_sandbox/fixtures` answers a body that is not JSON) when
 * its text does not parse. Whether the content is a valid fixtures file is the core's to say.
 */
export function readFixturesFile(path: string): unknown {
  const format = FORMATS[extname(path).toLowerCase()];
  if (format === undefined) {
    throw new TypeError(
      `[@boundbook/msw] createMockBoundBook(): fixtures must be a fixtures object or the path of a .json, .yaml or .yml file; got ${JSON.stringify(path)}`,
    );
  }
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `[@boundbook/msw] createMockBoundBook(): cannot read the fixtures file ${file} (${reason}); pass the path of a readable file, absolute or relative to the working directory ${process.cwd()}`,
      { cause: error },
    );
  }
  try {
    // A byte order mark, which some editors write, is no part of either format's text.
    const content = text.startsWith('\uFEFF') ? text.slice(1) : text;
    return format === 'JSON' ? JSON.parse(content) : parseYaml(content);
  } catch (error) {
    // YAML's messages go on with an excerpt of the file; the first line names the fault and where.
    const fault = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    const body = { message: `The fixtures file is not valid ${format}: ${fault}`, errors: { body: [`is not valid ${format}: ${fault}`] } };
    throw new MockBoundBookError(422, body, `[@boundbook/msw] createMockBoundBook(): the fixtures file ${file} is not valid ${format}: ${fault}; fix it and try again`);
  }
}

const FORMATS: Readonly<Record<string, 'JSON' | 'YAML'>> = { '.json': 'JSON', '.yaml': 'YAML', '.yml': 'YAML' };
