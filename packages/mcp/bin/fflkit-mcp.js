#!/usr/bin/env node
// The executable of the package. It is committed rather than built, so that it exists as soon
// as the package is installed (a workspace links every package's executable before anything is
// built), and it hands over to the built program. Standard output is the protocol's: errors go
// to standard error.
import('../dist/cli.js').then(
  ({ main }) => main(process.argv.slice(2)).then((code) => process.exit(code)),
  (error) => {
    const missing = error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist');
    process.stderr.write(
      missing
        ? 'fflkit-mcp: the package is not built: run `pnpm build` first.\n'
        : `fflkit-mcp: ${error?.stack ?? String(error)}\n`,
    );
    process.exit(1);
  },
);
