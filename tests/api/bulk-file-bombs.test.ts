// XLSX bombs through the real door: a member posts a crafted workbook to /add/bulk as the
// page's own form does (no JS), and gets the page back with a Swedish message next to the file field; the
// server keeps answering /livez meanwhile, its memory stays within bounds, and several bombs at once are each
// read or told to try again, never queued without end. The bombs are built at test time
// (tests/helpers/xlsx-bombs.ts): a few hundred kB each.
import { describe, expect, it } from 'vitest';
import { tBulkFile } from '#domain/texts/bulk-file.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import {
  goodWorkbook,
  lyingSizeBomb,
  manyEntriesBomb,
  nestedBomb,
  sharedStringsBomb,
} from '#tests/helpers/xlsx-bombs.ts';
import { decodeHtml } from '#tests/helpers/html.ts';

const portal = useScreens({ browser: false });
const newIccid = iccidFactory('8946578');
const f = tBulkFile;
const UNPACKED = f.unpackedTooLarge(10);
/** How much the process may grow while it reads bombs: the parser threads' heaps and a few MB of each file. */
const RSS_GROWTH_MAX = 700 * 1024 * 1024;

/** Posts the file as the page's form does; the answer's status and the message beside the file field, if any. */
async function upload(file: Buffer, cookie: string): Promise<{ status: number; fileError: string | null }> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(file)]), 'lista.xlsx');
  form.set('iccids', '');
  form.set('dataLimit', '1000');
  const res = await fetch(`${portal.server.url}/add/bulk`, { method: 'POST', headers: { cookie }, body: form });
  const html = await res.text();
  expect(html).not.toMatch(/\n\s+at |Error:|ERR_/);
  const error = /<p id="bulkFile-error" class="error">([^<]*)<\/p>/.exec(html);
  return { status: res.status, fileError: error ? decodeHtml(error[1]!) : null };
}

/** Runs `work` while asking /livez in a loop; how many probes were answered 200 before the work was done. */
async function whileProbing<T>(work: Promise<T>): Promise<{ result: T; liveBefore: number; peakRss: number }> {
  let done = false;
  let liveBefore = 0;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const prober = (async () => {
    while (!done) {
      const res = await fetch(`${portal.server.url}/livez`);
      await res.text();
      if (res.status === 200 && !done) liveBefore++;
    }
  })();
  try {
    const result = await work;
    return { result, liveBefore, peakRss };
  } finally {
    done = true;
    clearInterval(sampler);
    await prober;
  }
}

async function expectRefused(file: Buffer, message: string) {
  expect(file.length).toBeLessThan(1024 * 1024);
  const cookie = await portal.server.sessionCookie('anna@demo.test');
  const rssBefore = process.memoryUsage().rss;
  const { result, liveBefore, peakRss } = await whileProbing(upload(file, cookie));
  expect(result.status).toBe(200);
  // Soft: a failing run reports the memory as well as the message.
  expect.soft(result.fileError).toBe(message);
  expect.soft(peakRss - rssBefore).toBeLessThan(RSS_GROWTH_MAX);
  expect(liveBefore).toBeGreaterThan(0);
  expect((await fetch(`${portal.server.url}/livez`)).status).toBe(200);
}

describe('an XLSX bomb posted to /add/bulk', () => {
  it('a good workbook built the same way is read (the bombs below fail for their bomb, not their build)', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    expect(await upload(await goodWorkbook([newIccid(), newIccid()]), cookie)).toEqual({
      status: 200,
      fileError: null,
    });
  });

  it('(a) a sheet whose zip says 2 kB and which unpacks to 300 MB: refused at 10 MB actually unpacked', async () => {
    await expectRefused(await lyingSizeBomb(newIccid(), 300), UNPACKED);
  });

  it('(b) 1,500 sheets of 20 kB that each say 200 bytes: refused unread', async () => {
    await expectRefused(await manyEntriesBomb(newIccid(), 1500), UNPACKED);
  });

  it('(c) a sheet of a million nested elements (7 MB, honestly declared): refused when its parser runs out of heap', async () => {
    await expectRefused(await nestedBomb(newIccid(), 1_000_000), f.tooHeavy);
  });

  it('(d) a shared string that says 2 kB and unpacks to 200 MB: refused at 10 MB actually unpacked', async () => {
    await expectRefused(await sharedStringsBomb(200), UNPACKED);
  });

  it('six bombs at once: each refused or told to try again, the process within bounds and alive', async () => {
    const bombs = await Promise.all([
      nestedBomb(newIccid(), 1_000_000),
      nestedBomb(newIccid(), 1_000_000),
      nestedBomb(newIccid(), 1_000_000),
      lyingSizeBomb(newIccid(), 300),
      lyingSizeBomb(newIccid(), 300),
      sharedStringsBomb(200),
    ]);
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const rssBefore = process.memoryUsage().rss;
    const { result, liveBefore, peakRss } = await whileProbing(Promise.all(bombs.map((b) => upload(b, cookie))));
    for (const r of result) {
      expect(r.status).toBe(200);
      expect([UNPACKED, f.tooHeavy, f.busy]).toContain(r.fileError);
    }
    expect(liveBefore).toBeGreaterThan(0);
    expect(peakRss - rssBefore).toBeLessThan(RSS_GROWTH_MAX);
    // And a good file is read after them.
    expect(await upload(await goodWorkbook([newIccid()]), cookie)).toEqual({ status: 200, fileError: null });
  });
});
