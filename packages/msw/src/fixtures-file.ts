import { FixturesFileError, readFixturesFile as read } from '@fflkit/sandbox-core/fixtures-file';
import { MockLogbookError, packageMessage } from './errors';

// A fixtures file on disk, read when the mock is made, by the sandbox's own rule
// (`@fflkit/sandbox-core/fixtures-file`): the Node build's alone, so that neither node:fs nor
// the YAML parser is ever part of the web build.

/**
 * The parsed content of the fixtures file at `path` (absolute or from the working directory):
 * JSON or YAML by its extension, or by its first character for another name. Throws an `Error`
 * naming the file when it cannot be read, and a {@link MockLogbookError} (422, the fault under
 * `errors.body`, as `POST /_sandbox/fixtures` answers a body that is not a fixtures file) when
 * its text is empty, does not parse, gives a key twice in one object (then `errors` names it by
 * its path, `accounts[0].name`) or is not an object. Whether the content is a valid fixtures
 * file is the core's to say.
 */
export function readFixturesFile(path: string): unknown {
  try {
    return read(path);
  } catch (error) {
    if (!(error instanceof FixturesFileError)) throw error;
    const what = `createMockLogbook(): ${error.reason}`;
    if (error.fault === 'unreadable') throw new Error(packageMessage(what), { cause: error });
    const fault = error.problem;
    // A fault of one place (a key given twice) is named by its path, as the loader names its own.
    const errors = Object.keys(error.errors).length > 0 ? error.errors : { body: [fault] };
    throw new MockLogbookError(
      422,
      { message: `The fixtures file ${fault}`, errors: errors as Record<string, string[]> },
      what,
      { cause: error },
    );
  }
}
