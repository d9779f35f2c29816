// A sentence that sends the user to the support, naming its address (a mailto link) when the portal has one
// (SUPPORT_EMAIL, handed over by the page's loader); without an address, the sentence without it. As a notice
// (with its icon) when given a notice's kind.
import type { AroundAddress } from '#domain/texts/support.ts';
import { Notice, type NoticeKind } from '#app/components/ui/Notice.tsx';

export function SupportContact({
  address,
  text,
  fallback,
  className,
  role,
  notice,
}: {
  address: string | null;
  text: AroundAddress;
  fallback: string;
  className?: string;
  role?: 'status';
  /** Shown as a notice of this kind (className then adds to the notice's classes). */
  notice?: NoticeKind;
}) {
  const words = address ? (
    <>
      {text.before} <a href={`mailto:${address}`}>{address}</a> {text.after}
    </>
  ) : (
    fallback
  );
  if (notice)
    return (
      <Notice kind={notice} className={className} role={role}>
        {words}
      </Notice>
    );
  return (
    <p className={className} role={role}>
      {words}
    </p>
  );
}
