// What well-formed text is at the door: a Host name, a path and query, and a body that are valid UTF-8 without NUL
// bytes, whatever their encoding on the wire (percent-encoded, a form, multipart, JSON with escapes).
import { isUtf8 } from 'node:buffer';
import { t } from '#domain/texts/common.ts';
import { mediaTypeOf } from './media-type.ts';

// A host name (letters, digits, -, _ and dots), an IPv4 address or a bracketed IPv6 address, with an optional port.
const HOST =
  /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

export function validHost(host: string | undefined): boolean {
  if (!host || host.length > 255) return false;
  const m = HOST.exec(host);
  return !!m && (m[1] === undefined || Number(m[1]) <= 65535);
}

/** The bytes a URL-encoded text stands for: %XX decoded, + as a space where form-encoded, other characters as they came. */
function percentDecoded(raw: string, plusIsSpace: boolean): Buffer {
  const out = Buffer.allocUnsafe(raw.length);
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x25 && /^[0-9a-f]{2}$/i.test(raw.slice(i + 1, i + 3))) {
      out[n++] = parseInt(raw.slice(i + 1, i + 3), 16);
      i += 2;
    } else if (c === 0x2b && plusIsSpace) out[n++] = 0x20;
    else if (c > 0xff)
      return Buffer.from([0xff]); // not a byte: never valid
    else out[n++] = c;
  }
  return out.subarray(0, n);
}

const cleanBytes = (b: Buffer): boolean => !b.includes(0) && isUtf8(b);
// isWellFormed (ES2024, in Node 20+): no lone UTF-16 surrogate, which no UTF-8 text could carry.
const cleanString = (s: string): boolean =>
  !s.includes('\0') && (s as string & { isWellFormed(): boolean }).isWellFormed();

/** A Buffer as fetch's BodyInit. */
export const bytesOf = (b: Buffer): Uint8Array<ArrayBuffer> =>
  new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.length);

/** Every string (keys too) in a parsed JSON value is clean; walked without recursion (nesting may be deep). */
function cleanJson(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (!cleanString(v)) return false;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (!cleanString(k)) return false;
        stack.push(x);
      }
    }
  }
  return true;
}

/** JSON inside text (a tRPC `input` in the query) may carry \u0000 or a lone surrogate as an escape. */
function cleanIfJson(text: string): boolean {
  if (!/^\s*[[{"]/.test(text)) return true;
  try {
    return cleanJson(JSON.parse(text));
  } catch {
    return true; // not JSON after all: the handler refuses it in its own words
  }
}

/** Path and query: valid UTF-8 without NUL once percent-decoded, and no escaped NUL in JSON values. */
export function cleanUrl(url: string): boolean {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  if (!cleanBytes(percentDecoded(path, false)) || !cleanBytes(percentDecoded(query, true))) return false;
  for (const value of new URLSearchParams(query).values()) if (!cleanIfJson(value)) return false;
  return true;
}

/**
 * What is wrong with a body (text with NUL or bad UTF-8, an unreadable form), or null. Every body is judged,
 * whatever its Content-Type says (server/http/media-type.ts): a form by its decoded bytes, multipart by its text
 * fields, anything else as UTF-8 text (no door takes binary bytes but a multipart file), a JSON one also by the
 * strings its escapes make.
 */
export async function bodyProblem(header: string, body: Buffer): Promise<string | null> {
  const { kind } = mediaTypeOf(header);
  const text = (clean: boolean) => (clean ? null : t.refused.badText);
  if (kind === 'form') return text(cleanBytes(percentDecoded(body.toString('latin1'), true)));
  if (kind === 'multipart') {
    let form: FormData;
    try {
      form = await new Response(bytesOf(body), { headers: { 'content-type': header } }).formData();
    } catch {
      return t.refused.badForm; // Remix's actions would fail on it with a 500
    }
    let files = false;
    for (const value of form.values()) {
      if (typeof value === 'string') {
        if (!cleanString(value)) return t.refused.badText;
      } else files = true;
    }
    // Without files the whole body is text; with files only the text fields can be judged.
    return text(files || isUtf8(body));
  }
  return text(cleanBytes(body) && cleanIfJson(body.toString('utf8')));
}
