// usage:simulate: feeds a running portal live, as the network's mediation would: every few seconds a batch of
// records "now" for the demo's live SIMs (server/usage/demo.ts), sent through the REST door POST /api/network/usage
// with a network key (the embedded database cannot be opened by a second process, decision 033). The key: --key,
// else NETWORK_KEY, else the file the demo seed wrote in DATA_DIR (DEMO_KEY_FILE), a random key of this install.
// Prints what it sent and the answer's counts; Ctrl-C stops it between batches.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '#server/config.ts';
import { DEMO_KEY_FILE, liveDemoRecords } from '#server/usage/demo.ts';
import { formatBytes } from '#domain/usage/format.ts';
import { CliError } from './common.ts';

const DEFAULT_INTERVAL_S = 5;

type Counts = { taken: number; duplicates: number; unknownIccid: number; refused: Array<{ reason: string }> };

function keyFrom(given: string | undefined, dataDir: string): string {
  if (given) return given.trim();
  if (process.env.NETWORK_KEY) return process.env.NETWORK_KEY.trim();
  const file = path.join(dataDir, DEMO_KEY_FILE);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    throw new CliError(
      `no network key: give --key KEY or NETWORK_KEY (made on /admin/network), or start the demo once on an empty ` +
        `database so that it writes ${file}`,
    );
  }
}

/** One batch: the live records since the last one, posted; the line to print. */
async function sendBatch(url: string, key: string, now: Date, since: Date): Promise<string> {
  const records = liveDemoRecords(now, since);
  const bytes = records.reduce((s, r) => s + r.bytesUp + r.bytesDown, 0);
  let res: Response;
  try {
    res = await fetch(`${url}/api/network/usage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ records }),
    });
  } catch (e) {
    throw new CliError(`${url} cannot be reached (is the portal running?): ${(e as Error).message}`);
  }
  const text = await res.text();
  if (res.status !== 200) throw new CliError(`${url} answered ${res.status}: ${text.slice(0, 300)}`);
  const c = JSON.parse(text) as Counts;
  const refused = c.refused.map((r) => `\n  refused: ${r.reason}`).join('');
  return (
    `${now.toISOString()} sent ${records.length} records (${formatBytes(bytes)}): taken ${c.taken}, ` +
    `duplicates ${c.duplicates}, unknown ICCID ${c.unknownIccid}, refused ${c.refused.length}${refused}`
  );
}

export async function usageSimulate(argv: string[]): Promise<string> {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      interval: { type: 'string' },
      once: { type: 'boolean' },
    },
    strict: true,
  });
  const config = loadConfig();
  const url = (values.url ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/]+/.test(url)) throw new CliError(`--url "${url}": an http(s) address of the portal`);
  const seconds = values.interval === undefined ? DEFAULT_INTERVAL_S : Number(values.interval);
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 3600) throw new CliError('--interval: seconds, 1-3600');
  const key = keyFrom(values.key, config.dataDir);
  let since = new Date(Date.now() - seconds * 1000);
  const tick = async () => {
    const now = new Date();
    const line = await sendBatch(url, key, now, since);
    since = now;
    return line;
  };
  if (values.once) return tick();
  console.log(`usage:simulate: a batch every ${seconds} s to ${url}; Ctrl-C stops`);
  let batches = 0;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const onSignal = () => stop();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (;;) {
      try {
        console.log(await tick());
        batches++;
      } catch (e) {
        // A portal restarting or a network blip: said, and the next batch covers the time since the last sent.
        if (!(e instanceof CliError)) throw e;
        console.error(`Error: ${e.message}`);
      }
      let timer: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        stopped.then(() => 'stop' as const),
        new Promise<'tick'>((resolve) => (timer = setTimeout(() => resolve('tick'), seconds * 1000))),
      ]);
      clearTimeout(timer);
      if (waited === 'stop') break;
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return `usage:simulate stopped after ${batches} batches`;
}
