// Every package through `import`: the ESM builds and, for checkExports, the .d.ts types.
import assert from 'node:assert/strict';
import * as mcp from '@fflkit/mcp';
import * as msw from '@fflkit/msw';
import * as sandbox from '@fflkit/sandbox';
import * as sandboxCore from '@fflkit/sandbox-core';
import * as sdk from '@fflkit/sdk';
import * as types from '@fflkit/types';
import * as webhooks from '@fflkit/webhooks';
import { setupServer } from 'msw/node';
import { checkContractFiles, checkExports, checkPackages } from './check-packages.mjs';

const packages = { mcp, msw, sandbox, 'sandbox-core': sandboxCore, sdk, types, webhooks };
for (const name of Object.keys(packages)) {
  assert.match(import.meta.resolve(`@fflkit/${name}`), /\/dist\/index\.js$/, `@fflkit/${name} imports its ESM build`);
}
checkExports(packages, 'import');
checkContractFiles((specifier) => import.meta.resolve(specifier));
await checkPackages(packages, setupServer);
console.log('ESM: every package imports and works; the contract files resolve.');
