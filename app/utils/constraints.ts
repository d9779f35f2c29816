// A form's HTML constraints read from the zod schema its procedure parses, so a limit is written once (in
// server/<domain>/schemas.ts) and the browser's checks can never disagree with the server's. Runs in the
// browser too: it reads zod 4's schema definitions and imports no zod code of its own. Hand-written rather than
// @conform-to/zod's getZodConstraint, which with zod 4.6 reads no length or bound and marks every checkbox
// required (docs/decisions/024-ui-plumbing.md; tests/unit/constraints-pages.test.ts pins both).
import type { z } from 'zod';
import { defined } from '#domain/defined.ts';

export type FieldConstraint = {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  min?: number;
  max?: number;
  step?: number;
  inputMode?: 'email' | 'numeric';
};

// The parts of zod 4's definitions (schema._zod.def, check._zod.def) read here. zod types each definition
// exactly (one type per kind of schema); this walk reads them all through one loose shape.
type Node = { _zod: { def: object } };
type Def = {
  type: string;
  checks?: Node[];
  in?: Node;
  out?: Node;
  innerType?: Node;
  format?: string;
  pattern?: RegExp;
  check?: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
};

type Found = FieldConstraint & { optional?: boolean; nonEmpty?: boolean };

const lower = (a: number | undefined, b: number) => (a === undefined ? b : Math.min(a, b));
const higher = (a: number | undefined, b: number) => (a === undefined ? b : Math.max(a, b));

const defOf = (node: Node) => node._zod.def as Def;

/** A part of a definition its kind always has (zod 4's shape; an Error names it if a zod update drops it). */
const part = <T>(value: T | undefined, def: Def, name: keyof Def) =>
  defined(value, `zod's ${def.check ?? def.type} definition's ${name}`);

function readCheck(def: Def, found: Found, integer: boolean) {
  switch (def.check) {
    case 'min_length':
      found.minLength = higher(found.minLength, part(def.minimum, def, 'minimum'));
      break;
    case 'max_length':
      // Both ends of a pipe may cap the text (raw, then trimmed): the form allows the smaller.
      found.maxLength = lower(found.maxLength, part(def.maximum, def, 'maximum'));
      break;
    case 'length_equals':
      found.minLength = found.maxLength = part(def.length, def, 'length');
      break;
    case 'string_format':
      readFormat(def, found);
      break;
    case 'greater_than': {
      const value = part(def.value, def, 'value');
      found.min = higher(found.min, def.inclusive || !integer ? value : value + 1);
      break;
    }
    case 'less_than': {
      const value = part(def.value, def, 'value');
      found.max = lower(found.max, def.inclusive || !integer ? value : value - 1);
      break;
    }
  }
}

function readFormat(def: Def, found: Found) {
  found.nonEmpty = true;
  if (def.format === 'email') found.inputMode = 'email';
  else if (def.format === 'regex' && def.pattern) found.pattern = def.pattern.source.replace(/^\^|\$$/g, '');
}

function walk(node: Node, found: Found) {
  const def = defOf(node);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
      found.optional = true;
      walk(part(def.innerType, def, 'innerType'), found);
      return;
    case 'nullable':
    case 'readonly':
      walk(part(def.innerType, def, 'innerType'), found);
      return;
    case 'pipe':
      walk(part(def.in, def, 'in'), found);
      walk(part(def.out, def, 'out'), found);
      return;
    case 'enum':
    case 'literal':
      found.nonEmpty = true;
      return;
    case 'number': {
      const integer = (def.checks ?? []).some(
        (c) => defOf(c).check === 'number_format' && /int/.test(defOf(c).format ?? ''),
      );
      found.nonEmpty = true;
      found.inputMode = 'numeric';
      if (integer) found.step = 1;
      for (const c of def.checks ?? []) readCheck(defOf(c), found, integer);
      return;
    }
    case 'string':
      if (def.format) readFormat(def, found);
      for (const c of def.checks ?? []) readCheck(defOf(c), found, false);
      return;
  }
}

/** One field's constraints, as attributes for its input, textarea or select. */
export function fieldConstraint(schema: z.ZodType): FieldConstraint {
  const found: Found = {};
  walk(schema, found);
  const { optional, nonEmpty, ...attributes } = found;
  const required = !optional && (nonEmpty || (found.minLength ?? 0) > 0);
  return Object.fromEntries(
    Object.entries({ required: required || undefined, ...attributes }).filter(([, v]) => v !== undefined),
  );
}

/** Every field of an object schema: `{ name: { required: true, maxLength: 200 }, ... }`. */
export function constraints<S extends z.ZodObject>(schema: S): { [K in keyof S['shape']]: FieldConstraint } {
  const shape: Record<string, z.ZodType> = schema.shape;
  return Object.fromEntries(Object.entries(shape).map(([field, s]) => [field, fieldConstraint(s)])) as {
    [K in keyof S['shape']]: FieldConstraint;
  };
}

/**
 * What a refused form sends back to be shown again, each text cut at its field's maximum: a page never
 * echoes more than the field can hold, however much a client posted.
 */
export function withinLimits<V extends Record<string, unknown>>(
  values: V,
  fields: Partial<Record<string, FieldConstraint>>,
): V {
  const out: Record<string, unknown> = { ...values };
  for (const [key, value] of Object.entries(out)) {
    const max = fields[key]?.maxLength;
    if (typeof value === 'string' && max !== undefined && value.length > max) out[key] = value.slice(0, max);
  }
  return out as V;
}
