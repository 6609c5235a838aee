import dns from 'node:dns';
import net from 'node:net';
import { env } from '#shared/config';

/**
 * Which webhook URLs may be called. Production: `https://` to public addresses only, so a
 * subscriber cannot make us call our own network (SSRF: cloud metadata, VPC services).
 * Local development additionally allows `http://` and loopback, and nothing else non-public.
 */
export type UrlPolicy = { allowInsecureLocal: boolean };

export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** The deployment's policy; `ALLOW_INSECURE_WEBHOOKS=true` is for local development only. */
export function webhookPolicy(): UrlPolicy {
  return { allowInsecureLocal: env.allowInsecureWebhooks };
}

const MAX_URL_LENGTH = 2048;
const DNS_TIMEOUT_MS = 5_000;

// ---------------------------------------------------------------------------------------------
// Addresses

type Cidr4 = readonly [base: string, prefix: number];

/** IPv4 ranges that are not publicly routable unicast (RFC 6890 and friends). */
const NON_PUBLIC_V4: readonly Cidr4[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. 255.255.255.255 broadcast
];

function v4ToInt(ip: string): number | null {
  if (!net.isIPv4(ip)) return null;
  const parts = ip.split('.').map(Number);
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}

const NON_PUBLIC_V4_INT = NON_PUBLIC_V4.map(([base, prefix]) => {
  const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
  return { base: (v4ToInt(base)! & mask) >>> 0, mask };
});

function isPublicV4Int(n: number): boolean {
  return !NON_PUBLIC_V4_INT.some(({ base, mask }) => (n & mask) >>> 0 === base);
}

/** 16 bytes of an IPv6 address (with or without an embedded dotted quad or a zone), or null. */
function v6ToBytes(ip: string): number[] | null {
  const zone = ip.indexOf('%');
  const addr = zone >= 0 ? ip.slice(0, zone) : ip;
  if (!net.isIPv6(addr)) return null;
  const halves = addr.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (g.includes('.')) {
        const n = v4ToInt(g);
        if (n === null) return null;
        out.push(n >>> 16, n & 0xffff);
      } else {
        if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
        out.push(parseInt(g, 16));
      }
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return null;
  const fill = 8 - head.length - tail.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  const words = [...head, ...new Array<number>(fill).fill(0), ...tail];
  return words.flatMap((w) => [w >>> 8, w & 0xff]);
}

const bytesToV4Int = (b: number[], at: number): number => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

const startsWith = (b: number[], prefix: number[]): boolean => prefix.every((v, i) => b[i] === v);

function isPublicV6Bytes(b: number[]): boolean {
  // ::ffff:a.b.c.d reaches the IPv4 host, so it is exactly as public as that host.
  if (startsWith(b, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) return isPublicV4Int(bytesToV4Int(b, 12));
  // NAT64 (64:ff9b::/96) translates to the embedded IPv4 host.
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return isPublicV4Int(bytesToV4Int(b, 12));
  // Only global unicast (2000::/3) is public. This excludes ::, ::1, IPv4-compatible ::/96,
  // fc00::/7 (ULA, incl. fd00:ec2::254 metadata), fe80::/10, ff00::/8 and local NAT64 64:ff9b:1::/48.
  if ((b[0] & 0xe0) !== 0x20) return false;
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] <= 0x01) return false; // 2001::/23 IETF special-purpose (incl. Teredo)
  if (startsWith(b, [0x20, 0x01, 0x0d, 0xb8])) return false; // 2001:db8::/32 documentation
  if (b[0] === 0x3f && b[1] === 0xff && (b[2] & 0xf0) === 0) return false; // 3fff::/20 documentation
  // 6to4 (2002::/16) embeds the IPv4 host it tunnels to.
  if (b[0] === 0x20 && b[1] === 0x02) return isPublicV4Int(bytesToV4Int(b, 2));
  return true;
}

/** True only for a publicly routable unicast IPv4/IPv6 address; false for anything else, including non-IPs. */
export function isPublicAddress(ip: string): boolean {
  const v4 = v4ToInt(ip);
  if (v4 !== null) return isPublicV4Int(v4);
  const v6 = v6ToBytes(ip);
  return v6 !== null && isPublicV6Bytes(v6);
}

/** 127/8, ::1, or ::ffff:127.x.y.z. */
export function isLoopbackAddress(ip: string): boolean {
  const v4 = v4ToInt(ip);
  if (v4 !== null) return v4 >>> 24 === 127;
  const b = v6ToBytes(ip);
  if (!b) return false;
  if (startsWith(b, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) return b[12] === 127;
  return startsWith(b, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
}

/** Public, or loopback in local development mode. */
export function isAllowedAddress(ip: string, policy: UrlPolicy): boolean {
  return isPublicAddress(ip) || (policy.allowInsecureLocal && isLoopbackAddress(ip));
}

// ---------------------------------------------------------------------------------------------
// Host names

/** Names that by convention are local to the machine or the network, never a subscriber's server. */
function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || ['.localhost', '.internal', '.local'].some((suffix) => h.endsWith(suffix));
}

/** Why a resolved name must not be called, or null. Shared by validation and delivery so both apply one rule. */
function resolvedHostProblem(host: string, addresses: readonly string[], policy: UrlPolicy): string | null {
  if (addresses.length === 0) return 'host name could not be resolved';
  if (isLocalName(host)) {
    if (!policy.allowInsecureLocal) return 'URL must not point to a local host name';
    // Local mode: a local name is fine only for the developer's own machine.
    return addresses.every(isLoopbackAddress) ? null : 'local host name must resolve to loopback';
  }
  // Every address must pass: a client may connect to any of them.
  const bad = addresses.find((a) => !isAllowedAddress(a, policy));
  return bad === undefined ? null : `host resolves to a non-public address (${bad})`;
}

const stripBrackets = (hostname: string): string => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);

/**
 * Every check that needs no DNS: syntax, scheme, userinfo, IP literals, local names in
 * production. Delivery runs this before each request; names are then checked by `safeLookup`.
 */
export function checkWebhookUrlWithoutDns(raw: string, policy: UrlPolicy): WebhookUrlCheck {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, reason: 'URL is required' };
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `URL must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'URL is not a valid absolute URL' };
  }
  const schemeOk = url.protocol === 'https:' || (policy.allowInsecureLocal && url.protocol === 'http:');
  if (!schemeOk) return { ok: false, reason: policy.allowInsecureLocal ? 'URL must use http or https' : 'URL must use https' };
  // Credentials in the URL would be sent to (and logged by) whoever the URL points at.
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'URL must not contain a user name or password' };
  const host = stripBrackets(url.hostname);
  if (host === '') return { ok: false, reason: 'URL must include a host' };
  if (net.isIP(host) !== 0) {
    // WHATWG URL has already normalised odd forms (0x7f.1, 2130706433) to dotted quads.
    return isAllowedAddress(host, policy) ? { ok: true, url } : { ok: false, reason: 'URL must not point to a private, loopback or reserved address' };
  }
  if (isLocalName(host) && !policy.allowInsecureLocal) return { ok: false, reason: 'URL must not point to a local host name' };
  return { ok: true, url };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Validates a subscriber's URL when it is saved. Resolving here gives an early, clear error;
 * it is not the protection itself (DNS can change later), which is `safeLookup` at delivery.
 */
export async function checkWebhookUrl(raw: string, policy: UrlPolicy): Promise<WebhookUrlCheck> {
  const checked = checkWebhookUrlWithoutDns(raw, policy);
  if (!checked.ok) return checked;
  const host = stripBrackets(checked.url.hostname);
  if (net.isIP(host) !== 0) return checked;
  let addresses: string[];
  try {
    const found = await withTimeout(dns.promises.lookup(host, { all: true, verbatim: true }), DNS_TIMEOUT_MS);
    addresses = found.map((a) => a.address);
  } catch {
    return { ok: false, reason: 'host name could not be resolved' };
  }
  const problem = resolvedHostProblem(host, addresses, policy);
  return problem === null ? checked : { ok: false, reason: problem };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address?: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` replacement for the `lookup` option of `http.request`/`https.request`. It
 * resolves, checks every address, and only then hands them to the socket, so the address
 * connected to is the address checked (a name that re-resolves to 169.254.169.254 or 10.x
 * after validation — DNS rebinding — is refused). Supports both call styles Node uses:
 * `{ all: true }` (autoSelectFamily) and single address.
 */
export function safeLookup(policy: UrlPolicy): net.LookupFunction {
  const lookup = (hostname: string, options: unknown, callback?: unknown): void => {
    const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
    const opts: dns.LookupOptions = typeof options === 'number' ? { family: options } : typeof options === 'object' && options !== null ? options : {};
    dns.lookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return cb(err);
      const problem = resolvedHostProblem(
        hostname,
        addresses.map((a) => a.address),
        policy,
      );
      if (problem !== null) {
        const refused: NodeJS.ErrnoException = new Error(`address not allowed: ${problem}`);
        refused.code = 'EWEBHOOKADDRESS';
        return cb(refused);
      }
      if (opts.all) cb(null, addresses);
      else cb(null, addresses[0].address, addresses[0].family);
    });
  };
  return lookup;
}
