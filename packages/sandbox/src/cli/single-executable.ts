import { startupSnapshot } from 'node:v8';
import * as persisterModule from '../persistence/persister';
import * as sandboxModule from '../sandbox';
import { runCli } from './run-cli';

// The program of the single executable (`pnpm build:binary`, see binary/build.mjs): the CLI's
// program with every dependency inlined, run by the Node inside the executable. With a startup
// snapshot, this file runs once, on the build machine: it evaluates the modules a start needs
// (the CLI, the server, Hapi, joi and their schemas) and the snapshot keeps them evaluated, so
// that the executable starts from that state instead of evaluating them again. Nothing that
// holds an open handle or reads the machine (a socket, a timer, the environment) may happen
// before the snapshot is taken: everything here only defines.

/**
 * The modules `runCli` loads lazily to start the sandbox, evaluated here so that the snapshot
 * holds them; naming them also keeps the bundler from leaving them out.
 */
const START_MODULES = [sandboxModule, persisterModule] as const;

function main(): void {
  runCli(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`fflkit-sandbox: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}

if (startupSnapshot.isBuildingSnapshot()) startupSnapshot.setDeserializeMainFunction(main, START_MODULES);
else main();
