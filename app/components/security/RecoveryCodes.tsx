// Recovery codes to write down: shown once, right after they were made (/security, /login/passkey). Kept as the user
// likes (issue 41): "Ladda ner" as a text file (a link, so also without JS), and with JS "Kopiera" and "Skriv ut"
// (the printout is the codes alone: app/styles/base.css, @media print).
import { useHydrated } from '#app/utils/hydrated.ts';
import { CopyButton } from '#app/components/CopyButton.tsx';
import { tSecurity } from '#domain/texts/security.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

const LIST_ID = 'recovery-codes-list';

export function RecoveryCodes({ codes }: { codes: string[] }) {
  const hydrated = useHydrated();
  const file = `${tSecurity.recovery.fileTitle}\n${tSecurity.recovery.fileNote}\n\n${codes.join('\n')}\n`;
  return (
    <section className="card recovery-print" aria-labelledby="recovery-codes-title">
      <h2 id="recovery-codes-title">{tSecurity.recovery.codesTitle}</h2>
      <Notice>{tSecurity.recovery.shownOnce}</Notice>
      <ul className="recovery-codes" id={LIST_ID}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="actions recovery-actions">
        <a
          className="btn"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`}
          download={tSecurity.recovery.fileName}
        >
          {tSecurity.recovery.download}
        </a>
        <CopyButton value={codes.join('\n')} selectId={LIST_ID} />
        {hydrated ? (
          <button type="button" className="btn" onClick={() => window.print()}>
            {tSecurity.recovery.print}
          </button>
        ) : null}
      </div>
    </section>
  );
}
