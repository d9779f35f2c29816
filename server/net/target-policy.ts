// Where the portal itself may connect on a customer's say-so (a webhook's URL, a company's identity provider and
// every endpoint its discovery names): https only, to public addresses. Checked when the URL is saved and again
// at every connection after DNS resolution; the connection then goes to the very address that was checked (a
// `lookup` of our own for http(s).request), so a name re-resolving to an inside address between the check and
// the connect (DNS rebinding) cannot reach inside the network.
// allowPrivateTargets (WEBHOOK_ALLOW_PRIVATE_TARGETS, SSO_ALLOW_PRIVATE_TARGETS) lets https reach loopback too,
// and plain http reach loopback only (a local receiver or provider, the tests): never a public address over plain
// http, whatever a name resolves to.
import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** The error code of a connection refused by the policy (from `guardedLookup`, before any packet is sent). */
export const TARGET_REFUSED = 'ETARGETREFUSED';

/**
 * Addresses the portal never reaches (loopback is let through by the flag). One list per family: a BlockList
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
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  refused4.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48], // NAT64, local use
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo (wraps an IPv4 address)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (wraps any IPv4 address)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8], // multicast
] as const)
  refused6.addSubnet(net, bits, 'ipv6');
const loopback4 = new BlockList();
loopback4.addSubnet('127.0.0.0', 8, 'ipv4');
const loopback6 = new BlockList();
loopback6.addAddress('::1', 'ipv6');

/** Whether a literal address is a loopback one. */
const isLoopback = (address: string) =>
  isIP(address) === 4 ? loopback4.check(address, 'ipv4') : isIP(address) === 6 && loopback6.check(address, 'ipv6');

/** `loopbackOnly`: only loopback addresses (plain http with the flag), never a public one. */
export type TargetPolicy = { allowPrivateTargets: boolean; loopbackOnly?: boolean };

/** Why an address may not be reached (null: it may). */
export function addressProblem(address: string, policy: TargetPolicy): 'loopback' | 'private' | null {
  const v = isIP(address);
  if (v === 0) return 'private';
  if (policy.loopbackOnly) return policy.allowPrivateTargets && isLoopback(address) ? null : 'private';
  if (isLoopback(address)) return policy.allowPrivateTargets ? null : 'loopback';
  const refused = v === 4 ? refused4.check(address, 'ipv4') : refused6.check(address, 'ipv6');
  return refused ? 'private' : null;
}

export type UrlProblem = 'invalid' | 'scheme' | 'credentials' | 'loopback' | 'private' | 'unresolved';

/** The URL's host without IPv6 brackets. */
const hostOf = (u: URL) => u.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The policy for one URL: plain http may only ever reach loopback (with the flag), so its addresses are held
 * to that at registration and again at every connect, whatever its name resolves to then.
 */
export function policyFor(u: URL, policy: TargetPolicy): TargetPolicy {
  return u.protocol === 'http:' ? { ...policy, loopbackOnly: true } : policy;
}

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
    // Plain http only to a loopback address (a literal one, or localhost), and only with the flag.
    if (!policy.allowPrivateTargets) return 'scheme';
    if (host === 'localhost' || isLoopback(host)) return null;
    return 'scheme';
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
  const u = new URL(raw);
  const r = await checkedAddresses(hostOf(u), policyFor(u, policy), resolve);
  return 'problem' in r ? r.problem : null;
}

/** A `lookup` for http(s).request that connects only to addresses it has just checked. */
export function guardedLookup(policy: TargetPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    checkedAddresses(hostname, policy, resolve).then(
      (r) => {
        if ('problem' in r) {
          const err = Object.assign(new Error(`refused address (${r.problem})`), {
            code: TARGET_REFUSED,
            problem: r.problem,
          });
          callback(err, '', 0);
          return;
        }
        const all = r.addresses.map((address) => ({ address, family: isIP(address) }));
        if (options.all) (callback as (e: null, a: typeof all) => void)(null, all);
        else if (all[0]) callback(null, all[0].address, all[0].family);
        else callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

export { hostOf };
