import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig(
  packageBuild({
    esbuildOptions(options) {
      options.define = {
        ...options.define,
        // The User-Agent carries the published version without a hand-kept copy of it.
        __FFLKIT_SDK_VERSION__: JSON.stringify(version),
      };
    },
  }),
);
