// The few zip operations reading an XLSX safely needs (docs/decisions/015-xlsx-bounded-unpack.md): its central
// directory, an entry inflated with a cap on the bytes actually produced, and a new stored (uncompressed) zip.
// Imported by the XLSX worker thread too, which Node runs from source: only node: modules, only erasable TypeScript.
import { crc32, inflateRawSync } from 'node:zlib';

export type ZipEntry = { name: string; method: number; flags: number; compressedSize: number; localOffset: number };

/** Where the end-of-central-directory record is (within the last 64 kB + 22 bytes); -1 when there is none. */
function endRecord(bytes: Uint8Array, view: DataView): number {
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65_557); i--)
    if (view.getUint32(i, true) === 0x06054b50) return i;
  return -1;
}

const viewOf = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The sizes the zip's central directory declares for its entries, summed; null when there is none. */
export function declaredUnpackedSize(bytes: Uint8Array): number | null {
  const view = viewOf(bytes);
  const end = endRecord(bytes, view);
  if (end < 0) return null;
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return null;
    total += view.getUint32(at + 24, true);
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return total;
}

/**
 * The central directory's entries by name (the last of a repeated name wins, as in JSZip); 'entries' when there are
 * more than `maxEntries`, null when unreadable. One leading slash is dropped from a name, as exceljs does.
 */
export function zipDirectory(bytes: Uint8Array, maxEntries: number): Map<string, ZipEntry> | 'entries' | null {
  const view = viewOf(bytes);
  const end = endRecord(bytes, view);
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  if (count > maxEntries) return 'entries';
  let at = view.getUint32(end + 16, true);
  const entries = new Map<string, ZipEntry>();
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return null;
    const nameLength = view.getUint16(at + 28, true);
    if (at + 46 + nameLength > bytes.length) return null;
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)).replace(/^\//, '');
    entries.set(name, {
      name,
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      localOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/**
 * An entry's bytes, inflated to at most `budget` bytes: 'unpacked' past it (the inflation stops there, whatever the
 * zip declared), null when the entry is unreadable (encrypted, zip64, another method, outside the file).
 */
export function unpackEntry(bytes: Uint8Array, e: ZipEntry, budget: number): Uint8Array | 'unpacked' | null {
  const view = viewOf(bytes);
  if (e.flags & 1 || e.compressedSize === 0xffffffff || e.localOffset === 0xffffffff) return null;
  const local = e.localOffset;
  if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) return null;
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  if (start + e.compressedSize > bytes.length) return null;
  const data = bytes.subarray(start, start + e.compressedSize);
  if (e.method === 0) return data.length > budget ? 'unpacked' : data;
  if (e.method !== 8) return null;
  try {
    const out = inflateRawSync(data, { maxOutputLength: Math.max(1, budget) });
    return out.length > budget ? 'unpacked' : out;
  } catch (err) {
    return (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'unpacked' : null;
  }
}

/** A zip of these files, stored (nothing to inflate), in a buffer of its own (its .buffer is exactly the zip). */
export function storedZip(files: Array<[string, Uint8Array]>): Uint8Array<ArrayBuffer> {
  const locals: Uint8Array[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of files) {
    const n = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // the name is UTF-8
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    centrals.push(central, n);
    offset += 30 + n.length + data.length;
  }
  const size = centrals.reduce((s, b) => s + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  const parts = [...locals, ...centrals, end];
  const zip = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    zip.set(p, at);
    at += p.length;
  }
  return zip;
}
