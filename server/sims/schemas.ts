// Input schemas of the SIM operations: the single truth for validation (forms mirror them in HTML).
import { z } from 'zod';
import { iccidMessages, iccidProblem, normalizeIccid } from './iccid.js';

export const MARK_MAX = 200;

const mark = z
  .string()
  .max(10_000)
  .default('')
  .transform((v) => v.trim())
  .pipe(z.string().max(MARK_MAX, `Högst ${MARK_MAX} tecken.`));

// Forms send strings, JSON sends booleans: accept both.
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', '1', '0', ''])])
  .default(false)
  .transform((v) => v === true || v === 'true' || v === 'on' || v === '1');

const dataLimit = z.coerce
  .number({ error: 'Välj en datamängd.' })
  .int('Välj en datamängd.')
  .positive('Välj en datamängd.')
  .max(10_000_000, 'Välj en datamängd.');

export const iccidSchema = z
  .string({ error: iccidMessages.empty })
  .max(100, iccidMessages.length)
  .transform(normalizeIccid)
  .superRefine((v, ctx) => {
    const problem = iccidProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: iccidMessages[problem] });
  });

export const planChoice = { dataLimit, callAndSms: flag, roaming: flag };

export const activateInput = z.object({
  iccid: iccidSchema,
  ...planChoice,
  invoiceLineMark: mark,
  invoiceLineNote: mark,
});
export type ActivateInput = z.infer<typeof activateInput>;

export const editInput = z.object({
  id: z.coerce.number().int().positive(),
  ...planChoice,
  invoiceLineMark: mark,
  invoiceLineNote: mark,
});
export type EditInput = z.infer<typeof editInput>;

export const listInput = z
  .object({
    q: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(10_000).optional(),
    offset: z.coerce.number().int().min(0).optional(),
  })
  .default({});

export const ratePlanOutput = z.object({
  id: z.number(),
  code: z.string(),
  description: z.string(),
  dataLimit: z.number(),
  call: z.boolean(),
  sms: z.boolean(),
  roaming: z.boolean(),
  isLegacy: z.boolean(),
});

export const simOutput = z.object({
  id: z.number(),
  iccid: z.string(),
  invoiceLineMark: z.string(),
  invoiceLineNote: z.string(),
  status: z.enum(['active', 'deactivated']),
  activatedAt: z.string(),
  ratePlan: ratePlanOutput,
});

export const simDetailOutput = simOutput.extend({
  history: z.array(
    z.object({
      kind: z.enum(['activated', 'updated', 'planChanged', 'deactivated']),
      at: z.string(),
      by: z.string().nullable(),
      before: z.record(z.string(), z.unknown()).nullable(),
      after: z.record(z.string(), z.unknown()).nullable(),
    }),
  ),
});
