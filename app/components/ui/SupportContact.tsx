// A sentence that sends the user to the support, naming its address (a mailto link) when the portal has one
// (SUPPORT_EMAIL, handed over by the page's loader); without an address, the sentence without it.
import type { AroundAddress } from '#domain/texts/support.ts';

export function SupportContact({
  address,
  text,
  fallback,
  className,
}: {
  address: string | null;
  text: AroundAddress;
  fallback: string;
  className?: string;
}) {
  if (!address) return <p className={className}>{fallback}</p>;
  return (
    <p className={className}>
      {text.before} <a href={`mailto:${address}`}>{address}</a> {text.after}
    </p>
  );
}
