import { isIP } from 'node:net';
import { hostname } from 'node:os';

// Which requests the sandbox answers, as the dev servers of Vite and webpack decide it: only
// those addressed to one of its own names, so that a web page cannot reach it through DNS
// rebinding, and on the control API only those of its own origin or of an origin the developer
// allowed, so that no page a developer opens can drive it. This is the sandbox's own behaviour,
// not the service's. The allowed origins also get CORS answers, for a browser app under
// development that calls the sandbox.

/** What the guard lets through besides the sandbox's own names and origin. */
export interface GuardOptions {
  /**
   * Host names the sandbox answers to besides `localhost` (and `*.localhost`), IP addresses, the
   * machine's name and the name it listens on: exact names, `.example.com` for a domain and its subdomains, or
   * `all` for any (on a trusted network only).
   */
  readonly allowedHosts?: readonly string[] | undefined;
  /** Origins allowed to call the sandbox from a browser, with CORS, such as `http://localhost:5173`; `*` for any. */
  readonly cors?: readonly string[] | undefined;
  /** The interface the sandbox listens on: a name given there is one of its own. */
  readonly host?: string | undefined;
  /** The paths of the control surface, which only its own origin may drive: `/_sandbox` unless told. */
  readonly controlPrefix?: string | undefined;
  /** What the messages call the server: `sandbox` unless told (`drift proxy`). */
  readonly subject?: string | undefined;
}

/** A refusal: the status and the contract's error message. */
export interface Refusal {
  readonly status: 403;
  readonly message: string;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The refusal of a request to `path` with `headers`, or `undefined` when it may go on: a Host
 * that is not one of the sandbox's names is refused everywhere, a browser request of a foreign
 * origin is refused on the control API.
 */
export function refusalOf(path: string, headers: Headers, options: GuardOptions): Refusal | undefined {
  const host = single(headers['host']);
  const subject = options.subject ?? 'sandbox';
  if (host !== undefined && !isOwnName(hostName(host), options)) {
    const name = hostName(host);
    return {
      status: 403,
      message: `This ${subject} does not answer to the host name ${name}: a web page could reach it that way (DNS rebinding). Start the ${subject} with --allowed-hosts ${name} to allow it, such as a CI service name or a LAN name.`,
    };
  }
  if (!path.startsWith(options.controlPrefix ?? '/_sandbox')) return undefined;
  const origin = single(headers['origin']);
  const site = single(headers['sec-fetch-site']);
  const foreign = origin === undefined ? site === 'cross-site' || site === 'same-site' : !isSameOrigin(origin, host);
  if (!foreign || (origin !== undefined && allowsOrigin(origin, options))) return undefined;
  const from = origin ?? 'another site';
  return {
    status: 403,
    message: `This ${subject} refuses control API requests from the web page of ${from}: a page of another origin must not drive it.${options.subject === undefined ? ` Start the sandbox with --cors ${origin ?? '<origin>'} to allow that origin.` : ''}`,
  };
}

/**
 * The CORS headers of an answer to a request from `origin`, when that origin is allowed; a
 * preflight (`OPTIONS` with `Access-Control-Request-Method`) also gets what it may send.
 */
export function corsHeaders(headers: Headers, options: GuardOptions): Record<string, string> | undefined {
  const origin = single(headers['origin']);
  if (origin === undefined || !allowsOrigin(origin, options)) return undefined;
  const answer: Record<string, string> = {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
    Vary: 'Origin',
  };
  if (single(headers['access-control-request-method']) !== undefined) {
    answer['Access-Control-Allow-Methods'] = 'GET, HEAD, POST, PUT, DELETE';
    answer['Access-Control-Allow-Headers'] =
      single(headers['access-control-request-headers']) ?? 'authorization, content-type';
    answer['Access-Control-Max-Age'] = '600';
  }
  return answer;
}

/** Whether a request is a CORS preflight. */
export function isPreflight(method: string, headers: Headers): boolean {
  return (
    method.toUpperCase() === 'OPTIONS' &&
    single(headers['origin']) !== undefined &&
    single(headers['access-control-request-method']) !== undefined
  );
}

function allowsOrigin(origin: string, options: GuardOptions): boolean {
  const allowed = options.cors ?? [];
  return allowed.includes('*') || allowed.includes(origin.replace(/\/$/, ''));
}

function isOwnName(name: string, options: GuardOptions): boolean {
  if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost')) return true;
  // The machine's own name: how other machines of its network, and Hapi's server.inject(), name
  // it. Read when asked, never when the module loads: the single executable's startup snapshot
  // would hold the name of the machine that built it.
  if (name === hostname().toLowerCase()) return true;
  if (options.host !== undefined && name === options.host.toLowerCase()) return true;
  return (options.allowedHosts ?? []).some((allowed) => {
    const entry = allowed.toLowerCase();
    if (entry === 'all') return true;
    return entry.startsWith('.') ? name === entry.slice(1) || name.endsWith(entry) : name === entry;
  });
}

/** The name of a Host header, without its port or the brackets of an IPv6 address, in lower case. */
function hostName(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(1, trimmed.indexOf(']') === -1 ? undefined : trimmed.indexOf(']'));
  const colon = trimmed.lastIndexOf(':');
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
}

/** Whether `origin` is the sandbox's own: the scheme and the very host and port the request was sent to. */
function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  const own = host.trim().toLowerCase();
  const given = origin.trim().toLowerCase();
  return given === `http://${own}` || given === `https://${own}`;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
