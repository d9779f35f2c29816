// The REST door's reading of a query's strings (server/http/query-input.ts): as the field's type, with "false"
// false, what does not read left as text for the schema to refuse, and the schema itself never changed (issue 37:
// trpc-to-openapi's coerceSchema set the coerce flag on the shared schemas, so "false" became true on every door).
import { describe, expect, it } from 'vitest';
import { fromQuery, queryKindsOf } from '#server/http/query-input.ts';
import { z } from '#domain/zod.ts';

const schema = z.object({
  on: z.boolean(),
  maybe: z.boolean().optional(),
  n: z.number().int(),
  ids: z.array(z.number()).optional(),
  at: z.date().optional(),
  big: z.bigint().optional(),
  text: z.string().optional(),
  kept: z.coerce.number().default(5),
});
const flags = () => Object.values(schema.shape).map((f) => JSON.stringify(f._zod.def));

describe('a REST query read as its fields’ types', () => {
  it('reads true/false, numbers, lists, dates and big integers; leaves text and what does not read', () => {
    const kinds = queryKindsOf(schema);
    expect(kinds).toEqual({
      on: 'boolean',
      maybe: 'boolean',
      n: 'number',
      ids: 'number',
      at: 'date',
      big: 'bigint',
      kept: 'number',
    });
    const input = fromQuery(
      {
        on: 'false',
        maybe: 'true',
        n: '12',
        ids: ['1', '2'],
        at: '2026-11-28',
        big: '9007199254740993',
        text: '7',
        kept: '3',
      },
      kinds,
    );
    expect(input).toEqual({
      on: false,
      maybe: true,
      n: 12,
      ids: [1, 2],
      at: new Date('2026-11-28'),
      big: 9007199254740993n,
      text: '7',
      kept: 3,
    });
    expect(schema.parse(input).on).toBe(false);
    // Not a boolean, not a number: the text goes on, and the schema names the field.
    const odd = fromQuery({ on: 'kanske', n: 'tolv' }, kinds);
    expect(odd).toEqual({ on: 'kanske', n: 'tolv' });
    const refused = schema.safeParse(odd);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => i.path.join('.'))).toEqual(['on', 'n']);
  });

  it('never changes the schema: a JSON "false" stays a string the schema refuses', () => {
    const before = flags();
    fromQuery({ on: 'true', n: '1' }, queryKindsOf(schema));
    expect(flags()).toEqual(before);
    expect(schema.safeParse({ on: 'false', n: 1 }).success).toBe(false);
    expect(schema.shape.on._zod.def).not.toHaveProperty('coerce', true);
  });
});
