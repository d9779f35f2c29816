// Where a webhook may be sent (issue 16): https only, to public addresses. Checked when an endpoint is
// registered and again at every delivery after DNS resolution; the connection then goes to the very address
// that was checked (a `lookup` of our own for http(s).request), so a name re-resolving to an inside address
// between the check and the connect (DNS rebinding) cannot reach inside the network.
// WEBHOOK_ALLOW_PRIVATE_TARGETS=true lets http and https reach loopback only (a local receiver, the tests).
import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses a webhook never reaches (loopback is let through by the flag). One list per family: a BlockList
 * matches IPv4 addresses against IPv4-mapped IPv6 rules too, which would refuse every IPv4 address.
 */
const refused4 = new BlockList();
const refused6 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  refused4.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64
  ['2002::', 16], // 6to4 (wraps any IPv4 address)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  refused6.addSubnet(net, bits, 'ipv6');
const loopback4 = new BlockList();
loopback4.addSubnet('127.0.0.0', 8, 'ipv4');
const loopback6 = new BlockList();
loopback6.addAddress('::1', 'ipv6');

export type TargetPolicy = { allowPrivateTargets: boolean };

/** Why an address may not be reached (null: it may). */
export function addressProblem(address: string, policy: TargetPolicy): 'loopback' | 'private' | null {
  const v = isIP(address);
  if (v === 0) return 'private';
  const [isLoopback, isRefused] =
    v === 4
      ? [loopback4.check(address, 'ipv4'), refused4.check(address, 'ipv4')]
      : [loopback6.check(address, 'ipv6'), refused6.check(address, 'ipv6')];
  if (isLoopback) return policy.allowPrivateTargets ? null : 'loopback';
  return isRefused ? 'private' : null;
}

export type UrlProblem = 'invalid' | 'scheme' | 'credentials' | 'loopback' | 'private' | 'unresolved';

/** The URL's host without IPv6 brackets. */
const hostOf = (u: URL) => u.hostname.replace(/^\[(.*)\]$/, '$1');

/** What is wrong with the URL itself (scheme, credentials, a literal inside address), before any DNS. */
export function urlProblem(raw: string, policy: TargetPolicy): UrlProblem | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'invalid';
  }
  if (u.username || u.password) return 'credentials';
  const host = hostOf(u);
  if (u.protocol === 'http:') {
    // Plain http only to a loopback address, and only with the flag.
    if (!policy.allowPrivateTargets) return 'scheme';
    if (isIP(host) === 0 && host !== 'localhost') return 'scheme';
    if (isIP(host) !== 0 && addressProblem(host, policy)) return 'scheme';
    return null;
  }
  if (u.protocol !== 'https:') return 'scheme';
  if (isIP(host) !== 0) return addressProblem(host, policy);
  return null;
}

export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses.map((a) => a.address)),
    ),
  );

/** The addresses a host name resolves to, every one checked; refused if any is inside (or none resolves). */
export async function checkedAddresses(
  host: string,
  policy: TargetPolicy,
  resolve: Resolver = systemResolver,
): Promise<{ addresses: string[] } | { problem: UrlProblem }> {
  if (isIP(host) !== 0) {
    const p = addressProblem(host, policy);
    return p ? { problem: p } : { addresses: [host] };
  }
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return { problem: 'unresolved' };
  }
  if (addresses.length === 0) return { problem: 'unresolved' };
  for (const a of addresses) {
    const p = addressProblem(a, policy);
    if (p) return { problem: p };
  }
  return { addresses };
}

/** The whole check of a URL: its form, then every address its host resolves to. */
export async function targetProblem(
  raw: string,
  policy: TargetPolicy,
  resolve: Resolver = systemResolver,
): Promise<UrlProblem | null> {
  const p = urlProblem(raw, policy);
  if (p) return p;
  const r = await checkedAddresses(hostOf(new URL(raw)), policy, resolve);
  return 'problem' in r ? r.problem : null;
}

/** A `lookup` for http(s).request that connects only to addresses it has just checked. */
export function guardedLookup(policy: TargetPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    checkedAddresses(hostname, policy, resolve).then(
      (r) => {
        if ('problem' in r) {
          const err = Object.assign(new Error(`refused address (${r.problem})`), { code: 'EWEBHOOKTARGET' });
          callback(err, '', 0);
          return;
        }
        const all = r.addresses.map((address) => ({ address, family: isIP(address) }));
        if (options.all) (callback as (e: null, a: typeof all) => void)(null, all);
        else callback(null, all[0]!.address, all[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

export { hostOf };
