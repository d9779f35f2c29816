// The usage records kept aside (an ICCID that is no active SIM's), as the super admin's list reads them: input and
// output schemas, pure zod, so the page imports them too.
import { listLimit, z } from '#domain/zod.ts';
import { tNetwork } from '#domain/texts/network.ts';

export const usageAsideQuery = z.object({
  /** Where the page starts: the previous page's nextBefore (opaque). */
  before: z.string({ error: tNetwork.aside.errors.before }).max(400, tNetwork.aside.errors.before).optional(),
  limit: listLimit(),
});

export const usageAsideRecord = z.object({
  receivedAt: z.string(),
  source: z.string(),
  recordId: z.string(),
  iccid: z.string(),
  start: z.string(),
  end: z.string(),
  bytesUp: z.number(),
  bytesDown: z.number(),
  network: z.string().nullable(),
  country: z.string().nullable(),
});

export const usageAsidePage = z.object({
  items: z.array(usageAsideRecord),
  /** The next page's `before`; null on the last page. */
  nextBefore: z.string().nullable(),
});
export type UsageAsidePage = z.infer<typeof usageAsidePage>;
