// One source can no longer use up an address's login links. Links to one address are counted
// per source (the client address, from X-Forwarded-For of a trusted proxy here) and, higher, for all sources
// together; through the real door (POST /auth/login) with a real SMTP server as the peer.
import { describe, expect, it } from 'vitest';
import { ADDRESS_LIMIT, ADDRESS_SOURCE_LIMIT } from '#server/auth/login.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false, smtp: true, env: { TRUST_PROXY: 'loopback' } });

async function ask(address: string, source: string): Promise<void> {
  const res = await fetch(`${portal.server.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': source },
    body: JSON.stringify({ destination: address }),
  });
  // The same answer whatever happens behind it: no word of limits or of the address.
  expect(res.status).toBeLessThan(300);
  await res.arrayBuffer();
  await portal.server.services.settled();
}

describe('login links to one address', () => {
  it('a source that asks again and again does not lock the owner out from elsewhere', async () => {
    for (let i = 0; i < 8; i++) await ask('anna@demo.test', '203.0.113.9');
    const fromOneSource = portal.smtp.to('anna@demo.test').length;
    expect(fromOneSource).toBeLessThan(8);
    // Anna, from her own network, still gets her link.
    await ask('anna@demo.test', '198.51.100.7');
    expect(portal.smtp.to('anna@demo.test')).toHaveLength(fromOneSource + 1);
  });

  it('many sources together stop at the address’s ceiling', async () => {
    const sources = Math.ceil(ADDRESS_LIMIT.max / ADDRESS_SOURCE_LIMIT.max) + 1;
    for (let s = 0; s < sources; s++)
      for (let i = 0; i < ADDRESS_SOURCE_LIMIT.max; i++) await ask('ella@demo.test', `192.0.2.${s + 1}`);
    expect(portal.smtp.to('ella@demo.test')).toHaveLength(ADDRESS_LIMIT.max);
    expect(ADDRESS_LIMIT.max).toBeGreaterThan(ADDRESS_SOURCE_LIMIT.max);
  });
});
