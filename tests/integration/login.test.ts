// Login links through the procedures, from callers at different IP addresses, with a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_LIMIT, IP_LIMIT } from '#server/auth/login.ts';
import { RateLimitCounter } from '#server/db/entities.ts';
import type { Services } from '#server/services.ts';
import { createCaller } from '#server/trpc/caller.ts';
import { createContextInner } from '#server/trpc/context.ts';
import { startServices } from '#tests/helpers/caller.ts';
import { linkIn, startSmtp } from '#tests/helpers/smtp.ts';

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let services: Services;
let stop: () => Promise<void>;

beforeAll(async () => {
  smtp = await startSmtp();
  ({ services, stop } = await startServices({ env: { SMTP_URL: smtp.url } }));
});
afterAll(async () => {
  await stop?.();
  await smtp?.close();
});

const from = (ip: string) => createCaller(createContextInner({ services, ip }));

describe('login rate limits', () => {
  it('an IP over its limit does not use up the address count of the person it asks for', async () => {
    const attacker = from('203.0.113.7');
    for (let i = 0; i < IP_LIMIT.max; i++) await attacker.auth.requestLink({ destination: `nobody${i}@example.se` });
    await services.settled();
    // Over its limit now: asking for the victim's address again and again is refused before it is counted.
    for (let i = 0; i < ADDRESS_LIMIT.max + 5; i++) {
      expect(await attacker.auth.requestLink({ destination: 'anna@demo.test' })).toEqual({ success: true });
    }
    await services.settled();
    expect(smtp.to('anna@demo.test')).toHaveLength(0);
    expect(await services.orm.em.fork().count(RateLimitCounter, { key: 'login:address:anna@demo.test' })).toBe(0);

    // The victim, from another network, still gets a link, and it logs in.
    const victim = from('198.51.100.20');
    await victim.auth.requestLink({ destination: 'anna@demo.test' });
    await services.settled();
    expect(smtp.to('anna@demo.test')).toHaveLength(1);
    const token = new URL(linkIn(smtp.to('anna@demo.test')[0]!.raw)).searchParams.get('token')!;
    expect(await victim.auth.consumeLink({ token })).toEqual({ problem: null, redirectTo: null, stage: 'full' });
  });
});
