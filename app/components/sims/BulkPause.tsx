// The ticked SIMs' pause (issue 40): "Pausa" and "Återuppta" in the selection's toolbar of /sims, beside the tags and
// the deactivation. The buttons post the bulk form (its ticked boxes, or "all that match": its search) to /sims' own
// action (sim.bulkPause / sim.bulkResume), so they work without JS as the tags' buttons do; the toast from the server
// says how many changed and how many were already so. A refused list stands beside them.
import { tPause } from '#domain/texts/pause.ts';

export const BULK_PAUSE = 'pause';
export const BULK_RESUME = 'resume';

export function BulkPause({ error }: { error?: string }) {
  return (
    <div className="bulk-pause">
      <button
        className="btn"
        type="submit"
        formMethod="post"
        formAction="/sims?index"
        name="intent"
        value={BULK_PAUSE}
        aria-label={tPause.bulkPauseLabel}
      >
        {tPause.pause}
      </button>
      <button
        className="btn"
        type="submit"
        formMethod="post"
        formAction="/sims?index"
        name="intent"
        value={BULK_RESUME}
        aria-label={tPause.bulkResumeLabel}
      >
        {tPause.resume}
      </button>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
