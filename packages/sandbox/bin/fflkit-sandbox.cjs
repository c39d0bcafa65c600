#!/usr/bin/env node
// The executable of the package. It is committed rather than built, so that it exists as soon
// as the package is installed (a workspace links every package's executable before anything is
// built), and it hands over to the built launcher. CommonJS, as the launcher is, so that a start
// never sets up Node's ES module loader.
'use strict';
let launcher;
try {
  launcher = require.resolve('../dist/cli.cjs');
} catch {
  process.stderr.write(
    'fflkit-sandbox: the package is not built: run `pnpm build` (or `pnpm start` from the repository root) first.\n',
  );
  process.exit(1);
}
require(launcher);
