// The webhooks part of the OpenAPI document states the delivery settings' defaults and the retry schedule as
// the code has them (server/config.ts, server/webhooks/deliver.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { DELIVERY_DESCRIPTION, RETRY_SCHEDULE, WEBHOOK_DEFAULTS } from '#server/http/openapi-webhooks.ts';

describe('the webhooks of the OpenAPI document', () => {
  it('name the configuration defaults of the timeout, the backoff and the retry window', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oa-webhooks-'));
    try {
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, SESSION_SECRET: 'x'.repeat(64) });
      expect({
        timeoutMs: config.webhooks.timeoutMs,
        backoffMs: config.webhooks.backoffMs,
        retryForMs: config.webhooks.retryForMs,
      }).toEqual(WEBHOOK_DEFAULTS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('state the backoff steps of the delivery worker', () => {
    expect(RETRY_SCHEDULE).toEqual(['10 s', '30 s', '1 min', '5 min', '15 min', '30 min', '1 h']);
    expect(DELIVERY_DESCRIPTION).toContain('10 s, 30 s, 1 min, 5 min, 15 min, 30 min, then every 1 h');
    expect(DELIVERY_DESCRIPTION).toContain('WEBHOOK_RETRY_FOR_MS (24 h)');
  });
});
