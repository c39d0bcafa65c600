// The checks that smoke.mjs (import) and smoke.cjs (require) run on the packages they loaded, as a
// consumer's code would use them.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';

const RECEIPT = {
  book: 'Main',
  serial_number: 'SMOKE-0001',
  manufacturer: 'Example Arms Co.',
  model: 'Model 1',
  type: 'Pistol',
  caliber: '9mm',
  receipt_date: '2025-03-14',
  received_from: 'Example Firearms Wholesale LLC',
  ffl_license: '9-99-999-01-6A-00001',
};

/**
 * Asserts that every installed `@fflkit/*` package was loaded, and that each exports at run
 * time exactly the values its declarations promise under the same condition (`import` or
 * `require`): a value the types promise and the build lacks compiles, then fails at run time.
 */
export function checkExports(packages, resolutionMode) {
  assert.deepEqual(
    Object.keys(packages).sort(),
    readdirSync('node_modules/@fflkit').sort(),
    'every installed package is checked',
  );
  const options = {
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    lib: ['lib.es2023.d.ts'],
    types: [],
    noEmit: true,
  };
  const mode = resolutionMode === 'import' ? ts.ModuleKind.ESNext : ts.ModuleKind.CommonJS;
  const files = Object.keys(packages).map((name) => {
    const { resolvedModule } = ts.resolveModuleName(
      `@fflkit/${name}`,
      `${process.cwd()}/index.ts`,
      options,
      ts.sys,
      undefined,
      undefined,
      mode,
    );
    assert.ok(resolvedModule, `@fflkit/${name} has types for ${resolutionMode}`);
    return resolvedModule.resolvedFileName;
  });
  const program = ts.createProgram(files, options);
  const checker = program.getTypeChecker();
  for (const [index, [name, runtime]] of Object.entries(packages).entries()) {
    const declared = checker
      .getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(files[index])))
      .filter(
        (symbol) =>
          !symbol.declarations?.some((d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly)),
      )
      .filter(
        (symbol) =>
          (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol).flags &
          ts.SymbolFlags.Value,
      )
      .map((symbol) => symbol.name);
    assert.deepEqual(
      Object.keys(runtime).sort(),
      declared.sort(),
      `@fflkit/${name}: the values exported at run time are those its types declare (${resolutionMode})`,
    );
  }
}

/**
 * The contract files that @fflkit/types ships resolve, through its exports map, to the
 * documents themselves: `resolve` is the consumer's resolver (`import.meta.resolve` from ESM,
 * `require.resolve` from CommonJS) and answers a path or a file: URL.
 */
export function checkContractFiles(resolve) {
  const read = (specifier) => {
    const resolved = resolve(specifier);
    assert.match(
      resolved,
      /[\\/]node_modules[\\/]@fflkit[\\/]types[\\/]contract[\\/]/,
      `${specifier} resolves into the installed package`,
    );
    return readFileSync(resolved.startsWith('file:') ? new URL(resolved) : resolved, 'utf8');
  };
  assert.match(
    read('@fflkit/types/openapi.yaml'),
    /^openapi: 3\.1\.\d+\n[\s\S]*^paths:\n[\s\S]*\/receipts\/\{id\}\/dispose:/m,
    "openapi.yaml is the service's contract",
  );
  assert.match(
    read('@fflkit/types/sandbox.yaml'),
    /^openapi: 3\.1\.\d+\n[\s\S]*^paths:\n[\s\S]*\/_sandbox\/accounts:/m,
    "sandbox.yaml is the control API's contract",
  );
  const schema = JSON.parse(read('@fflkit/types/fixtures.schema.json'));
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema', 'fixtures.schema.json is a JSON Schema');
}

/** The version of an installed package, from its package.json. */
export function installedVersion(name) {
  return JSON.parse(readFileSync(`node_modules/@fflkit/${name}/package.json`, 'utf8')).version;
}

/** Uses every package: the core, the MSW mock with the SDK and the webhook verifier, the sandbox server. */
export async function checkPackages(packages, setupServer) {
  const { types, sdk, webhooks, msw, sandbox, mcp, 'sandbox-core': sandboxCore } = packages;

  assert.deepEqual(types.RECEIPT_STATUSES, ['on_hand', 'disposed']);

  const core = sandboxCore.createSandboxCore();
  const account = core.createAccount({ account_type: 'dealer' });
  const books = await core.handle({
    method: 'GET',
    path: '/rest/v1/books',
    query: '',
    headers: { authorization: `Bearer ${account.token}` },
    body: '',
  });
  assert.equal(books.status, 200, 'sandbox-core answers GET /books');

  // The SDK against the MSW mock; the delivery the mock signs verifies with @fflkit/webhooks.
  const baseUrl = 'https://logbook.example.test/rest/v1';
  const mock = msw.createMockLogbook({ baseUrl });
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const logbook = new sdk.LogbookClient({ token: mock.createAccount().token, baseUrl });
    const { secret } = await logbook.webhooks.create({ url: 'https://hooks.example.test/in', events: ['*'] });
    const receipt = await logbook.receipts.create(RECEIPT);
    await assert.rejects(logbook.receipts.get(receipt.id + 1), sdk.NotFoundError);
    assert.equal(mock.deliveries.length, 1, 'one delivery of receipt.created');
    const [{ body, headers }] = mock.deliveries;
    assert.equal(await webhooks.signPayload(secret, body), headers['X-SVC-Signature']);
    assert.equal(await webhooks.verifySignature(secret, body, headers['X-SVC-Signature']), true);
    assert.equal(await webhooks.verifySignature(`${secret}x`, body, headers['X-SVC-Signature']), false);
    const event = await webhooks.constructEvent(body, headers, { secret });
    assert.equal(event.event, 'receipt.created');
    assert.equal(event.data.serial_number, RECEIPT.serial_number);
  } finally {
    server.close();
  }

  const running = await sandbox.startSandbox({ port: 0 });
  try {
    const { token } = await running.createAccount();
    const response = await fetch(`${running.apiUrl}/books`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200, 'the sandbox answers GET /books');
    const userAgents = [];
    const recording = (input, init) => {
      userAgents.push(new Headers(init.headers).get('user-agent'));
      return fetch(input, init);
    };
    const listed = await new sdk.LogbookClient({ token, baseUrl: running.apiUrl, fetch: recording }).books.list();
    assert.deepEqual(
      listed.map((book) => book.name),
      ['Main'],
    );
    // The versions a package states come from its own manifest, as published.
    assert.deepEqual(userAgents, [`fflkit-sdk/${installedVersion('sdk')}`], "the SDK's User-Agent names its version");
    const health = await (await fetch(`${running.url}/_sandbox/health`)).json();
    assert.deepEqual(
      health,
      { data: { status: 'ok', version: installedVersion('sandbox') } },
      'the health answer names the version of @fflkit/sandbox',
    );
    // The sandbox's MCP endpoint loads @fflkit/mcp as installed, and lists its tools.
    assert.match(await mcpTools(running.url, token), /"name":"create_receipt"/, 'the sandbox serves /_sandbox/mcp');
    assert.equal(typeof mcp.createLogbookMcpServer, 'function');
  } finally {
    await running.stop();
  }
}

/** The answer to `tools/list` of the MCP endpoint of the sandbox at `origin`, in a session opened with `token`. */
export async function mcpTools(origin, token) {
  const headers = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const post = (body, session) =>
    fetch(`${origin}/_sandbox/mcp`, {
      method: 'POST',
      headers:
        session === undefined
          ? headers
          : { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify(body),
    });
  const opened = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'consumer-smoke', version: '1' } },
  });
  assert.equal(opened.status, 200, `initialize answered ${opened.status}: ${await opened.clone().text()}`);
  const listed = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, opened.headers.get('mcp-session-id'));
  return listed.text();
}
