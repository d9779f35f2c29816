// An event stream (/api/sse) opened with fetch, collecting its text until it is closed.
import { expect } from 'vitest';

/** Opens /api/sse and collects its text until closed. */
export async function openStream(url: string, cookie: string) {
  const controller = new AbortController();
  const res = await fetch(`${url}/api/sse`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  let text = '';
  let closed = false;
  const done = (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    } catch {
      // aborted
    }
    closed = true;
  })();
  return {
    res,
    text: () => text,
    closed: () => closed,
    async waitFor(pattern: RegExp, ms = 10_000) {
      await expect.poll(() => text, { timeout: ms, message: `stream did not show ${pattern}` }).toMatch(pattern);
    },
    async close() {
      controller.abort();
      await done;
    },
    done,
  };
}
