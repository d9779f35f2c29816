// A sentence that sends the user to the support, naming its address (a mailto link) when the portal has one
// (SUPPORT_EMAIL, handed over by the page's loader); without an address, the sentence without it.
import type { AroundAddress } from '#domain/texts/support.ts';

export function SupportContact({
  address,
  text,
  fallback,
  className,
  role,
}: {
  address: string | null;
  text: AroundAddress;
  fallback: string;
  className?: string;
  role?: 'status';
}) {
  if (!address)
    return (
      <p className={className} role={role}>
        {fallback}
      </p>
    );
  return (
    <p className={className} role={role}>
      {text.before} <a href={`mailto:${address}`}>{address}</a> {text.after}
    </p>
  );
}
