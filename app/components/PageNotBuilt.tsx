import { t } from '#domain/texts/common.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

/** A plain, honest page for screens whose issue is not done yet. */
export function PageNotBuilt({ title }: { title: string }) {
  return (
    <>
      <h1>{title}</h1>
      <Notice>{t.notBuilt}</Notice>
    </>
  );
}
