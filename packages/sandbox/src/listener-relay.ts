import { EventEmitter } from 'node:events';
import type { Server as HttpServer } from 'node:http';

// Hapi takes its HTTP server when it is made, and keeps it. The single executable makes its Hapi
// server in its startup snapshot, which cannot hold a `node:http` server (nor its socket): Hapi is
// given this relay instead, an object with the interface of one, as its `listener` option allows.
// The real server is attached at start: the listeners Hapi added until then move to it, so that a
// request reaches Hapi with no step between, and every later call goes to it.

/** A listener of an event, as EventEmitter takes it. */
type Listener = (...args: unknown[]) => void;

/** Stands for the HTTP server of a Hapi server made before that HTTP server exists. */
export class ListenerRelay extends EventEmitter {
  #target: HttpServer | undefined;
  /** The same server, as the emitter whose methods this one's stand for. */
  #emitter: EventEmitter | undefined;

  /** The HTTP server attached, or `undefined` before {@link attach}. */
  get target(): HttpServer | undefined {
    return this.#target;
  }

  /** Moves every listener added so far to `target`, and sends every later call to it; once. */
  attach(target: HttpServer): void {
    if (this.#target !== undefined) throw new Error('[@fflkit/sandbox] the listener relay is attached already');
    const emitter: EventEmitter = target;
    for (const name of this.eventNames()) {
      const listeners = this.listeners(name);
      const raw = this.rawListeners(name);
      // A listener added with once() is wrapped: its raw form differs from the listener itself.
      listeners.forEach((listener, index) => {
        if (raw[index] === listener) emitter.on(name, listener as Listener);
        else emitter.once(name, listener as Listener);
      });
    }
    super.removeAllListeners();
    this.#target = target;
    this.#emitter = emitter;
  }

  override on(name: string | symbol, listener: Listener): this {
    if (this.#emitter === undefined) super.on(name, listener);
    else this.#emitter.on(name, listener);
    return this;
  }

  override addListener(name: string | symbol, listener: Listener): this {
    return this.on(name, listener);
  }

  override once(name: string | symbol, listener: Listener): this {
    if (this.#emitter === undefined) super.once(name, listener);
    else this.#emitter.once(name, listener);
    return this;
  }

  override removeListener(name: string | symbol, listener: Listener): this {
    if (this.#emitter === undefined) super.removeListener(name, listener);
    else this.#emitter.removeListener(name, listener);
    return this;
  }

  override off(name: string | symbol, listener: Listener): this {
    return this.removeListener(name, listener);
  }

  override removeAllListeners(name?: string | symbol): this {
    if (this.#emitter === undefined) super.removeAllListeners(name);
    else this.#emitter.removeAllListeners(name);
    return this;
  }

  /** The attached server's address, as `server.address()`; `null` before it listens. */
  address(): ReturnType<HttpServer['address']> {
    return this.#target?.address() ?? null;
  }

  /** Closes the attached server, as `server.close()`. */
  close(callback?: (error?: Error) => void): this {
    if (this.#target === undefined) callback?.(new Error('[@fflkit/sandbox] no HTTP server is attached'));
    else this.#target.close(callback);
    return this;
  }
}
