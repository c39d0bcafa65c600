import { hostname } from 'node:os';
import { createSandboxCore } from '@fflkit/sandbox-core';
import { nodeSha256Hex } from '@fflkit/sandbox-core/node-crypto';
import type { Server } from '@hapi/hapi';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../src/persistence/memory-storage';
import { CorePersister } from '../src/persistence/persister';
import { createSandboxServer, keepSandboxServer, prepareSandboxServer } from '../src/server';

// The single executable keeps a server made in its startup snapshot and attaches it at start:
// these tests hold createSandboxServer() to using it, and the server made ahead to serving as
// one made at start does.

function pieces(cors?: readonly string[]) {
  const core = createSandboxCore({ sha256Hex: nodeSha256Hex });
  return { core, persister: new CorePersister(core, new MemoryStorage()), cors };
}

let started: Server | undefined;

/** Starts a server once Hapi has ended the registration of its plugin, a turn after it is made. */
async function start(server: Server): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await server.start();
  started = server;
}

afterEach(async () => {
  vi.useRealTimers();
  await started?.stop();
  started = undefined;
});

describe('keepSandboxServer()', () => {
  it('makes the server that the next createSandboxServer() attaches, and only the next', () => {
    const kept = keepSandboxServer();
    const first = createSandboxServer(pieces());
    const second = createSandboxServer(pieces());
    expect(first).toBe(kept);
    expect(second).not.toBe(kept);
  });
});

describe('prepareSandboxServer()', () => {
  it('serves the core, the origins and the port given at attach, over HTTP, and stops cleanly', async () => {
    const prepared = prepareSandboxServer();
    const origin = 'http://localhost:5173';
    const { core, persister } = pieces();
    const { token } = core.createAccount();
    const server = prepared.attach({ core, persister, cors: [origin], port: 0 });
    expect(server).toBe(prepared.server);
    await start(server);
    const port = Number(server.info.port);
    expect(port).toBeGreaterThan(0);

    const books = await fetch(`http://127.0.0.1:${port}/rest/v1/books`, {
      headers: { authorization: `Bearer ${token}`, origin },
    });
    expect(books.status).toBe(200);
    expect(books.headers.get('access-control-allow-origin')).toBe(origin);
    const refused = await fetch(`http://127.0.0.1:${port}/_sandbox/accounts`, {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
    });
    expect(refused.status).toBe(403);

    await server.stop();
    started = undefined;
    await expect(fetch(`http://127.0.0.1:${port}/_sandbox/health`)).rejects.toThrow();
  });

  it("answers the parser's refusals in the contract's shape once attached", async () => {
    const server = prepareSandboxServer().attach({ ...pieces(), port: 0 });
    await start(server);
    const { connect } = await import('node:net');
    const socket = connect(Number(server.info.port), '127.0.0.1');
    socket.write('GET /\x00 HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const text = await new Promise<string>((resolve) => {
      let data = '';
      socket.on('data', (chunk) => {
        data += String(chunk);
      });
      socket.on('close', () => resolve(data));
    });
    expect(text).toMatch(/^HTTP\/1\.1 400/);
    expect(text).toContain('"message"');
  });

  it('takes the time, host name and process of the attach into server.info, not of its making', () => {
    vi.useFakeTimers({ now: 0, toFake: ['Date'] });
    const prepared = prepareSandboxServer();
    expect(prepared.server.info.created).toBe(0);
    vi.setSystemTime(Date.UTC(2030, 0, 1));
    const server = prepared.attach(pieces());
    expect(server.info.created).toBe(Date.UTC(2030, 0, 1));
    expect(server.info.id).toBe(`${hostname()}:${process.pid}:${Date.UTC(2030, 0, 1).toString(36)}`);
    expect(server.info.host).toBe(hostname() || 'localhost');
  });

  it('refuses a second attach', () => {
    const prepared = prepareSandboxServer();
    prepared.attach(pieces());
    expect(() => prepared.attach(pieces())).toThrow(/attached already/);
  });
});

describe('createSandboxServer()', () => {
  it('gives Hapi the HTTP server itself, as server.listener', async () => {
    const { createServer } = await import('node:http');
    const listener = createServer();
    const server = createSandboxServer({ ...pieces(), listener });
    expect(server.listener).toBe(listener);
  });
});
