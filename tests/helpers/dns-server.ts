// A real DNS server on 127.0.0.1 (UDP, dns-packet + node:dgram) whose TXT records a test sets: the portal's
// resolver is pointed at it by SSO_DNS_SERVERS, so a domain's proof of ownership is checked with no traffic
// beyond loopback. Names without records answer NXDOMAIN; `hang` makes it swallow queries (a resolver timeout).
import dgram from 'node:dgram';
import * as packet from 'dns-packet';
import { ssoTxtName, ssoTxtValue } from '#domain/sso/domains.ts';
import { checkSsoDomains } from '#server/auth/sso-domains.ts';
import { SsoDomain, User } from '#server/db/entities.ts';
import type { Services } from '#server/services.ts';

const NXDOMAIN = 3;
const SERVFAIL = 2;

export type TestDns = {
  /** For SSO_DNS_SERVERS: `127.0.0.1:<port>`. */
  address: string;
  /** Sets (replaces) the TXT strings of a name; an empty list removes the name. */
  txt: (name: string, values: string[]) => void;
  /** Every question asked so far, lower-cased `TYPE name`. */
  queries: string[];
  /** Whether queries go unanswered (the resolver times out) or fail with SERVFAIL. */
  mode: 'answer' | 'hang' | 'fail';
  close: () => Promise<void>;
};

export async function startDns(): Promise<TestDns> {
  const records = new Map<string, string[]>();
  const socket = dgram.createSocket('udp4');
  const dns: TestDns = {
    address: '',
    queries: [],
    mode: 'answer',
    txt(name, values) {
      const key = name.toLowerCase().replace(/\.$/, '');
      if (values.length) records.set(key, values);
      else records.delete(key);
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (message, peer) => {
    let query: packet.DecodedPacket;
    try {
      query = packet.decode(message);
    } catch {
      return; // not DNS: no answer
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    dns.queries.push(`${question.type} ${name}`);
    if (dns.mode === 'hang') return;
    const values = records.get(name);
    const answers: packet.Answer[] =
      question.type === 'TXT' && values
        ? values.map((data) => ({ type: 'TXT', name: question.name, ttl: 60, data }))
        : [];
    const rcode = dns.mode === 'fail' ? SERVFAIL : values ? 0 : NXDOMAIN;
    const reply = packet.encode({
      type: 'response',
      id: query.id,
      flags: packet.AUTHORITATIVE_ANSWER | packet.RECURSION_AVAILABLE | rcode,
      questions: query.questions,
      answers,
    });
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  dns.address = `127.0.0.1:${socket.address().port}`;
  return dns;
}

/**
 * Proves the company's saved SSO domains as their owner would: each one's TXT record put into `dns`, then checked
 * through the service the settings pages use. For tests of the sign-in itself, not of the proof.
 */
export async function proveSsoDomains(dns: TestDns, services: Services, companyId: number): Promise<void> {
  const em = services.orm.em.fork();
  for (const row of await em.find(SsoDomain, { company: companyId }))
    dns.txt(ssoTxtName(row.domain), [ssoTxtValue(row.verificationToken)]);
  // Checked as the staff's super admin would from the company's sign-in page.
  const admin = await em.findOneOrFail(User, { isSuperAdmin: true }, { orderBy: { id: 'asc' } });
  const states = await checkSsoDomains(services, em, { userId: admin.id, actingCompanyId: null }, companyId);
  const unproved = states.filter((s) => s.state !== 'verified');
  if (unproved.length) throw new Error(`proveSsoDomains: not verified: ${JSON.stringify(unproved)}`);
}
