import { EventEmitter } from 'node:events';
import { createServer, type Server as HttpServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ListenerRelay } from '../src/listener-relay';

describe('ListenerRelay', () => {
  it('moves the listeners added before attach to the server, each once as it was added', () => {
    const relay = new ListenerRelay();
    const target = new EventEmitter();
    const seen: string[] = [];
    relay.on('request', (value) => seen.push(`on ${String(value)}`));
    relay.once('listening', () => seen.push('once'));
    relay.attach(target as HttpServer);

    expect(relay.listenerCount('request')).toBe(0);
    target.emit('request', 'a');
    target.emit('request', 'b');
    target.emit('listening');
    target.emit('listening');
    expect(seen).toEqual(['on a', 'on b', 'once']);
  });

  it('sends every call after attach to the server', () => {
    const relay = new ListenerRelay();
    const target = new EventEmitter();
    relay.attach(target as HttpServer);
    const seen: string[] = [];
    const listener = (): void => {
      seen.push('connection');
    };
    relay.on('connection', listener);
    relay.once('listening', () => seen.push('listening'));
    expect(target.listenerCount('connection')).toBe(1);
    target.emit('connection');
    relay.removeListener('connection', listener);
    target.emit('connection');
    target.emit('listening');
    target.emit('listening');
    relay.on('error', () => undefined);
    relay.removeAllListeners('error');
    expect(target.listenerCount('error')).toBe(0);
    expect(seen).toEqual(['connection', 'listening']);
  });

  it("answers the server's address and closes it", async () => {
    const relay = new ListenerRelay();
    expect(relay.address()).toBeNull();
    const server = createServer();
    relay.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    expect(relay.address()).toEqual(server.address());
    await new Promise<void>((resolve, reject) => relay.close((error) => (error ? reject(error) : resolve())));
    expect(server.listening).toBe(false);
  });

  it('refuses a second attach', () => {
    const relay = new ListenerRelay();
    relay.attach(new EventEmitter() as HttpServer);
    expect(() => relay.attach(new EventEmitter() as HttpServer)).toThrow(/attached already/);
  });
});
