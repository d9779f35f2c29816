import { t } from '#domain/texts/common.ts';

/** A plain, honest page for screens whose issue is not done yet. */
export function PageNotBuilt({ title }: { title: string }) {
  return (
    <>
      <h1>{title}</h1>
      <p className="notice">{t.notBuilt}</p>
    </>
  );
}
