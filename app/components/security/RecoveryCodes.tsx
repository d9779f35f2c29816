// Recovery codes to write down: shown once, right after they were made (/security, /login/passkey).
import { tSecurity } from '#domain/texts/security.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section className="card" aria-labelledby="recovery-codes-title">
      <h2 id="recovery-codes-title">{tSecurity.recovery.codesTitle}</h2>
      <Notice>{tSecurity.recovery.shownOnce}</Notice>
      <ul className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
