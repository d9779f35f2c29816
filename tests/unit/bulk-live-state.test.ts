// The live view of /add/bulk as a reducer (app/bulk/live-state.ts): which answers count (the ticket of the
// latest request), what a form post, an emptied list and the network do, and a run in chunks from start to end.
import { describe, expect, it } from 'vitest';
import {
  canPreview,
  initialLiveState,
  liveReducer,
  readPlan,
  type LiveAction,
  type LiveState,
  type Plan,
} from '#app/bulk/live-state.ts';
import { startRows } from '#app/bulk/run.ts';
import type { BulkActivateOutput } from '#domain/sims/schemas.ts';

const plan: Plan = {
  dataLimit: 1000,
  callAndSms: false,
  roaming: false,
  invoiceLineMark: '',
  invoiceLineNote: '',
  tags: [],
};
const answer: BulkActivateOutput = {
  results: [{ iccid: '8946000000000000001', outcome: 'ready' }],
  counts: { activated: 0, ready: 1, invalid: 0, duplicateInList: 0, alreadyActive: 0, activeElsewhere: 0 },
};
const run = (actions: LiveAction[], from: LiveState = initialLiveState) => actions.reduce(liveReducer, from);
const previewed = (ticket: number): LiveAction => ({
  type: 'previewed',
  ticket,
  list: ['8946000000000000001'],
  plan,
  answer,
});

describe('the live preview', () => {
  it('shows the answer to the latest request, and is updating while it waits', () => {
    const asking = run([{ type: 'asking', ticket: 1 }]);
    expect(asking).toMatchObject({ updating: true, ticket: 1, view: { kind: 'idle' } });
    const shown = liveReducer(asking, previewed(1));
    expect(shown.updating).toBe(false);
    expect(shown.view).toEqual({ kind: 'preview', list: ['8946000000000000001'], plan, answer });
  });

  it('drops an answer to an older request', () => {
    const state = run([{ type: 'asking', ticket: 1 }, { type: 'asking', ticket: 2 }, previewed(1)]);
    expect(state).toMatchObject({ updating: true, view: { kind: 'idle' } });
    expect(liveReducer(state, { type: 'refused', ticket: 1, text: 'gammal' })).toBe(state);
    expect(liveReducer(state, { type: 'unreachable', ticket: 1 })).toBe(state);
    expect(liveReducer(state, { type: 'refused', ticket: 2, text: 'Datamängd saknas.' }).view).toEqual({
      kind: 'message',
      text: 'Datamängd saknas.',
    });
  });

  it('an empty list (or a chosen file) shows nothing, a too long one says so', () => {
    const shown = run([{ type: 'asking', ticket: 1 }, previewed(1)]);
    expect(run([{ type: 'nothing', ticket: 2 }], shown)).toMatchObject({ view: { kind: 'idle' }, updating: false });
    expect(run([{ type: 'message', ticket: 2, text: 'För många' }], shown).view).toEqual({
      kind: 'message',
      text: 'För många',
    });
  });

  it('a form post of the page and "Töm listan" drop what is on its way', () => {
    const asking = run([{ type: 'asking', ticket: 1 }]);
    const posted = run([{ type: 'posted', ticket: 2 }, previewed(1)], asking);
    expect(posted).toMatchObject({ updating: false, view: { kind: 'idle' }, ticket: 2 });
    const emptied = run([{ type: 'queued', waiting: 3 }, { type: 'emptied', ticket: 2 }, previewed(1)], asking);
    expect(emptied).toMatchObject({ updating: false, waiting: 0, backPrompt: false, view: { kind: 'idle' } });
  });
});

describe('the network', () => {
  it('gone: the page says so; back with a list: it asks before it sends', () => {
    const off = run([{ type: 'asking', ticket: 1 }, { type: 'offline' }]);
    expect(off).toMatchObject({ offline: true, updating: false, backPrompt: false });
    const back = liveReducer(off, { type: 'online', listed: true });
    expect(back).toMatchObject({ offline: false, backPrompt: true });
    expect(liveReducer(back, { type: 'send' }).backPrompt).toBe(false);
    expect(liveReducer(off, { type: 'online', listed: false }).backPrompt).toBe(false);
    // Gone again while asking: the prompt goes with it.
    expect(liveReducer(back, { type: 'offline' }).backPrompt).toBe(false);
  });

  it('a preview without an answer (no network) marks the page offline, and an answer marks it online', () => {
    const off = run([
      { type: 'asking', ticket: 1 },
      { type: 'unreachable', ticket: 1 },
    ]);
    expect(off).toMatchObject({ offline: true, updating: false });
    expect(run([{ type: 'asking', ticket: 2 }, previewed(2)], off).offline).toBe(false);
  });
});

describe('the activation in chunks', () => {
  it('runs, shows each chunk, stops with the rest pending, and finishes on "Försök igen"', () => {
    const rows = startRows(['1', '2']);
    const running = run([
      { type: 'asking', ticket: 1 },
      { type: 'run', ticket: 2, plan, rows },
    ]);
    expect(running).toMatchObject({ updating: false, view: { kind: 'run', state: 'running', rows } });
    // No preview over a running activation, and a late preview answer changes nothing.
    expect(canPreview(running)).toBe(false);
    expect(run([{ type: 'asking', ticket: 3 }, previewed(1), { type: 'nothing', ticket: 4 }], running)).toBe(running);
    // A form post leaves a running run on the page.
    expect(liveReducer(running, { type: 'posted', ticket: 5 }).view).toBe(running.view);

    const half = [{ iccid: '1', outcome: 'activated' as const, simId: 7 }, rows[1]!];
    const stopped = run(
      [
        { type: 'chunk', rows: half },
        { type: 'stopped', rows: half },
      ],
      running,
    );
    expect(stopped.view).toEqual({ kind: 'run', plan, rows: half, state: 'stopped', problem: undefined });
    expect(canPreview(stopped)).toBe(true);

    const done = [half[0]!, { iccid: '2', outcome: 'invalid' as const, message: 'Ogiltigt' }];
    const finished = run(
      [
        { type: 'run', ticket: 6, plan, rows: half },
        { type: 'finished', rows: done },
      ],
      stopped,
    );
    expect(finished.view).toEqual({ kind: 'run', plan, rows: done, state: 'finished', problem: undefined });
  });

  it('a chunk answer without a run on the page changes nothing', () => {
    expect(liveReducer(initialLiveState, { type: 'chunk', rows: [] })).toBe(initialLiveState);
  });
});

describe('the form', () => {
  it('reads the plan, an empty amount as 0, and whether a named file field holds a file', () => {
    const data = new FormData();
    data.set('iccids', '1\n2');
    data.set('dataLimit', '');
    data.set('roaming', 'true');
    data.set('invoiceLineMark', 'Lager');
    data.set('tags', ' Göteborg,, Kylbilar ');
    expect(readPlan(data)).toEqual({
      plan: {
        dataLimit: 0,
        callAndSms: false,
        roaming: true,
        invoiceLineMark: 'Lager',
        invoiceLineNote: '',
        tags: ['Göteborg', 'Kylbilar'],
      },
      fileChosen: false,
    });
    // A file field with nothing chosen posts an empty, nameless file.
    data.set('file', new File([], ''));
    expect(readPlan(data).fileChosen).toBe(false);
    data.set('file', new File(['8946'], 'lista.csv'));
    data.set('dataLimit', '5000');
    expect(readPlan(data)).toMatchObject({ plan: { dataLimit: 5000 }, fileChosen: true });
  });
});
