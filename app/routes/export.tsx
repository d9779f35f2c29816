// Export: the invoice specification form. Without JS it is a plain GET form to the download URL (a bad
// query comes back here with the values and the message); with JS the file downloads without leaving the page.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useEffect, useState, type FormEvent } from 'react';
import { showToast } from '#app/components/Toaster.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { t } from '#domain/texts/common.ts';
import { requireUser } from '#app/utils/auth.server.ts';
// Pure rule modules, shared with the procedure's validation (no server runtime).
import { EXPORT_PRESETS, presetPeriod, yearMonthInZone, type YearMonth } from '#domain/export/periods.ts';
import { checkExportQuery, EXPORT_FIELDS, YEAR_MAX, YEAR_MIN, type ExportField } from '#domain/export/query.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

const DOWNLOAD_PATH = '/api/export/getExcelV1';

export const ErrorBoundary = routeErrorBoundary(t.export.title);

export const meta: MetaFunction = () => [{ title: `${t.export.title} – ${t.appName}` }];

/** The one-click periods as addresses of this page with the fields filled (a GET: with or without JS). */
function presetsOf(current: YearMonth) {
  return EXPORT_PRESETS.map((key) => {
    const p = presetPeriod(key, current);
    const values: Record<ExportField, string> = {
      start_year: String(p.start.year),
      start_month: String(p.start.month),
      end_year: String(p.end.year),
      end_month: String(p.end.month),
    };
    return { key, label: t.export.presets[key], values, href: `/export?${new URLSearchParams(values)}` };
  });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireUser(request, context);
  const url = new URL(request.url);
  const current = yearMonthInZone(new Date());
  const presets = presetsOf(current);
  if (EXPORT_FIELDS.some((f) => url.searchParams.has(f))) {
    // Sent back by the download URL (JS off), or a one-click period: keep what was typed and say what is wrong with it.
    const values = Object.fromEntries(EXPORT_FIELDS.map((f) => [f, url.searchParams.get(f) ?? ''])) as Record<
      ExportField,
      string
    >;
    const check = checkExportQuery(values, current);
    return { values, issues: check.ok ? [] : check.issues, presets };
  }
  const d = await context.trpc.export.defaultPeriod();
  const values = Object.fromEntries(EXPORT_FIELDS.map((f) => [f, String(d[f])])) as Record<ExportField, string>;
  return { values, issues: [], presets };
}

function filenameFrom(disposition: string | null): string | null {
  const m = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  return m?.[1] ?? null;
}

type Status = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; filename: string };

export default function ExportPage() {
  const { values, issues, presets } = useLoaderData<typeof loader>();
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  // Set once React runs: from then on the submit handler below downloads in place.
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const fieldError = (f: ExportField) => issues.find((i) => i.field === f)?.message;

  async function download(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === 'string') params.append(k, v);
    setStatus({ kind: 'busy' });
    try {
      const res = await fetch(`${DOWNLOAD_PATH}?${params}`, {
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      });
      if (!res.ok) {
        let message: string = t.export.errorFallback;
        try {
          const body = (await res.json()) as { error?: unknown };
          if (typeof body.error === 'string' && body.error) message = body.error;
        } catch {
          // No JSON: the fallback text.
        }
        showToast({ type: 'error', title: t.export.errorTitle, message });
        setStatus({ kind: 'idle' });
        return;
      }
      const blob = await res.blob();
      const filename = filenameFrom(res.headers.get('content-disposition')) ?? 'Sim_export.xlsx';
      const href = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = href;
      a.download = filename;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
      setStatus({ kind: 'done', filename });
    } catch {
      showToast({ type: 'error', title: t.export.errorTitle, message: t.export.errorFallback });
      setStatus({ kind: 'idle' });
    }
  }

  const field = (f: ExportField, label: string, isYear: boolean) => {
    const error = fieldError(f);
    return (
      <div className={error ? 'field invalid' : 'field'}>
        <label htmlFor={f}>{label}</label>
        <input
          id={f}
          name={f}
          type="number"
          inputMode="numeric"
          required
          step={1}
          min={isYear ? YEAR_MIN : 1}
          max={isYear ? YEAR_MAX : 12}
          defaultValue={values[f]}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${f}-error` : undefined}
        />
        {error ? (
          <p id={`${f}-error`} className="error">
            {error}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <>
      <h1>{t.export.title}</h1>
      <p className="muted">{t.export.intro}</p>
      {status.kind === 'done' ? (
        <Notice kind="success" role="status">
          {t.export.done(status.filename)}
        </Notice>
      ) : null}
      <nav className="export-presets" aria-label={t.export.presetsLabel}>
        <ul>
          {presets.map((p) => (
            <li key={p.key}>
              <Link
                className="btn btn-small"
                to={p.href}
                replace
                preventScrollReset
                aria-current={EXPORT_FIELDS.every((f) => p.values[f] === values[f]) ? 'true' : undefined}
              >
                {p.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {/* A period refused without JS (the download URL sent it back); with JS the spec's error toast says it. */}
      <ErrorSummary errors={issues.length ? issueMessages(issues) : null} fields={summaryFields} />
      <form
        key={JSON.stringify(values)}
        method="get"
        action={DOWNLOAD_PATH}
        className="card"
        noValidate
        onSubmit={(event) => void download(event)}
        data-enhanced={enhanced ? 'true' : undefined}
      >
        <fieldset className="export-period">
          <legend>{t.export.start}</legend>
          <div className="pair">
            {field('start_year', t.export.startYear, true)}
            {field('start_month', t.export.startMonth, false)}
          </div>
        </fieldset>
        <fieldset className="export-period">
          <legend>{t.export.end}</legend>
          <div className="pair">
            {field('end_year', t.export.endYear, true)}
            {field('end_month', t.export.endMonth, false)}
          </div>
        </fieldset>
        <button className="btn btn-primary" type="submit" disabled={status.kind === 'busy'}>
          {status.kind === 'busy' ? t.export.busy : t.export.submit}
        </button>
      </form>
    </>
  );
}

// The messages name their field or the period: no label before them.
const summaryFields = { start_year: {}, start_month: {}, end_year: {}, end_month: {} };

/** The first message of each field, by field. */
function issueMessages(issues: { field: string; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) out[issue.field] ??= issue.message;
  return out;
}
