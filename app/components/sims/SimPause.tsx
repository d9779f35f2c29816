// The SIM page's pause (issue 40, docs/decisions/037): for a paused SIM when and by whom it was paused ("Pausad sedan
// 2026-11-29 14:05 av Anna", "API-nyckel Lager", "regeln ”Över 90 %”"), what a pause means, and "Återuppta"; for an
// active SIM "Pausa" with the same words. Each button is a plain POST form to the SIM page's action (intent pause or
// resume, sim.pause / sim.resume), so it works without JS; with JS Remix posts it and reloads the page's data, no
// full reload. A viewer sees the state without the button; a deactivated SIM has no panel at all.
import { Form } from '@remix-run/react';
import type { PausedBy } from '#domain/sims/pause.ts';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { tPause } from '#domain/texts/pause.ts';
import { formatDateTime } from '#app/utils/text.ts';

export const PAUSE = 'pause';
export const RESUME = 'resume';

/** Who paused it, in words: the person's name, "API-nyckel <name>" or "regeln ”<name>”". */
export function pausedByText(by: PausedBy | null): string | null {
  if (!by) return null;
  if (by.kind === 'apiKey') return tApiKeys.actor(by.name);
  if (by.kind === 'rule') return tPause.byRule(by.name);
  return by.name || null;
}

export function SimPause(p: {
  status: string;
  pausedAt: string | null;
  pausedBy: PausedBy | null;
  writable: boolean;
  busy: boolean;
}) {
  if (p.status === 'deactivated') return null;
  const paused = p.status === 'paused';
  if (!paused && !p.writable) return null;
  const when = p.pausedAt ? formatDateTime(p.pausedAt) : null;
  const who = pausedByText(p.pausedBy);
  return (
    <section className={paused ? 'card sim-pause is-paused' : 'card sim-pause'} aria-labelledby="pause-title">
      <h2 id="pause-title">{tPause.stateTitle}</h2>
      {paused ? (
        // The badge stands by the page's title: here when and who.
        <p className="sim-pause-since">
          {when && who ? tPause.pausedSince(when, who) : when ? tPause.pausedWhen(when) : tPause.pausedLabel}
        </p>
      ) : null}
      <p className="muted sim-pause-hint">{paused ? tPause.pausedHint : tPause.pauseHint}</p>
      {p.writable ? (
        <Form method="post" preventScrollReset className="sim-pause-form">
          <input type="hidden" name="intent" value={paused ? RESUME : PAUSE} />
          <button className={paused ? 'btn btn-primary' : 'btn'} type="submit" disabled={p.busy}>
            {paused ? tPause.resume : tPause.pause}
          </button>
        </Form>
      ) : null}
    </section>
  );
}
