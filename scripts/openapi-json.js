// Writes the OpenAPI document as GET /api/openapi.json serves it, without a server or a database (openApi reads
// only the config's appUrl and cookie flag): to the file named by the first argument, else to stdout. Used by
// `npm run lint:openapi` (redocly lint on it). Run with tsx (it imports the server's TypeScript).
import { writeFileSync } from 'node:fs';
import { openApi } from '#server/http/openapi.ts';

const appUrl = process.env.APP_URL ?? 'https://sim-portal.example.se';
const services = /** @type {import('#server/services.ts').Services} */ (
  /** @type {unknown} */ ({ config: { appUrl, secureCookies: appUrl.startsWith('https:') } })
);
const text = `${JSON.stringify(openApi(services), null, 2)}\n`;
const out = process.argv[2];
if (out) writeFileSync(out, text);
else process.stdout.write(text);
