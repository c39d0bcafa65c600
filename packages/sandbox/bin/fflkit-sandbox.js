#!/usr/bin/env node
// The executable of the package. It is committed rather than built, so that it exists as soon
// as the package is installed (a workspace links every package's executable before anything is
// built), and it hands over to the built launcher.
import('../dist/cli.js').catch((error) => {
  const missing = error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist');
  process.stderr.write(
    missing
      ? 'fflkit-sandbox: the package is not built: run `pnpm build` (or `pnpm start` from the repository root) first.\n'
      : `fflkit-sandbox: ${error?.stack ?? String(error)}\n`,
  );
  process.exit(1);
});
