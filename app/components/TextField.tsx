import type { InputHTMLAttributes } from 'react';
import { Field } from './Field.tsx';

type Props = {
  id: string;
  name: string;
  label: string;
  error?: string;
  hint?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'>;

/** A labelled <input> with its hint and its error right below it: Field with an input inside. */
export function TextField({ id, name, label, error, hint, ...input }: Props) {
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      {(aria) => <input {...aria} name={name} {...input} />}
    </Field>
  );
}
