// Crafted XLSX files for the bulk list's file upload, built at test time: a minimal workbook
// written part by part, so that a part may declare a size it does not have (the zip directory's "uncompressed
// size", local and central alike) and unpack to hundreds of MB from a few hundred kB.
import { crc32, createDeflateRaw } from 'node:zlib';

/** A part too big to hold in memory: `before`, then `fill` repeated until `mb` MB, then `after`. */
export type Big = { before: string; fill: string; mb: number; after: string };
export type Part = { name: string; body: string | Big; declaredSize?: number };

async function deflate(body: string | Big): Promise<{ data: Buffer; size: number; crc: number }> {
  const z = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  z.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve) => z.on('end', resolve));
  let crc = 0;
  let size = 0;
  const write = async (b: Buffer) => {
    crc = crc32(b, crc);
    size += b.length;
    if (!z.write(b)) await new Promise((resolve) => z.once('drain', resolve));
  };
  if (typeof body === 'string') await write(Buffer.from(body, 'utf8'));
  else {
    await write(Buffer.from(body.before, 'utf8'));
    const mb = Buffer.from(body.fill.repeat(Math.ceil((1024 * 1024) / body.fill.length)).slice(0, 1024 * 1024));
    for (let i = 0; i < body.mb; i++) await write(mb);
    await write(Buffer.from(body.after, 'utf8'));
  }
  z.end();
  await ended;
  return { data: Buffer.concat(chunks), size, crc };
}

/** A zip of these parts, deflated; a part's declaredSize, when given, is what both directories say it unpacks to. */
export async function zipOf(parts: Part[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const { data, size, crc } = await deflate(part.body);
    const declared = part.declaredSize ?? size;
    const name = Buffer.from(part.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** The rows of a sheet, each cell inline text (no shared strings needed). */
export const sheetRows = (rows: string[][]) =>
  rows
    .map(
      (cells, r) =>
        `<row r="${r + 1}">${cells
          .map((c, i) => `<c r="${String.fromCharCode(65 + i)}${r + 1}" t="inlineStr"><is><t>${escape(c)}</t></is></c>`)
          .join('')}</row>`,
    )
    .join('');
export const SHEET_START = `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetData>`;
export const SHEET_END = '</sheetData></worksheet>';

/** The parts of a workbook whose one sheet is `sheet` (its XML, or a part built of it). */
export function workbookParts(sheet: Part['body'], declaredSize?: number): Part[] {
  return [
    {
      name: '[Content_Types].xml',
      body: `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    },
    {
      name: '_rels/.rels',
      body: `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      body: `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Blad1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      body: `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', body: sheet, declaredSize },
  ];
}

/** A good workbook: a header and these ICCIDs. */
export const goodWorkbook = (iccids: string[]) =>
  zipOf(workbookParts(`${SHEET_START}${sheetRows([['iccid'], ...iccids.map((i) => [i])])}${SHEET_END}`));

/** (a) A sheet that says it is 2 kB and unpacks to `mb` MB (valid XML: the rows, then blanks). */
export const lyingSizeBomb = (iccid: string, mb: number) =>
  zipOf(
    workbookParts(
      { before: `${SHEET_START}${sheetRows([['iccid'], [iccid]])}`, fill: ' ', mb, after: SHEET_END },
      2048,
    ),
  );

/** (b) A good sheet and `count` more sheets of about 20 kB each that say they are 200 bytes. */
export const manyEntriesBomb = async (iccid: string, count: number) => {
  const filler = `${SHEET_START}${sheetRows([['x'.repeat(100)]]).repeat(150)}${SHEET_END}`;
  const parts = workbookParts(`${SHEET_START}${sheetRows([['iccid'], [iccid]])}${SHEET_END}`);
  for (let i = 0; i < count; i++)
    parts.push({ name: `xl/worksheets/sheet${i + 2}.xml`, body: filler, declaredSize: 200 });
  return zipOf(parts);
};

/** (c) A sheet whose rows are followed by `depth` nested elements (7 bytes each), honestly declared. */
export const nestedBomb = (iccid: string, depth: number) =>
  zipOf(
    workbookParts(
      `${SHEET_START}${sheetRows([['iccid'], [iccid]])}${'<x>'.repeat(depth)}${'</x>'.repeat(depth)}${SHEET_END}`,
    ),
  );

/** (d) A shared string of `mb` MB, in a part that says it is 2 kB, named by the sheet's ICCID cell. */
export const sharedStringsBomb = async (mb: number) => {
  const parts = workbookParts(
    `${SHEET_START}${sheetRows([['iccid']])}<row r="2"><c r="A2" t="s"><v>0</v></c></row>${SHEET_END}`,
  );
  parts.push({
    name: 'xl/sharedStrings.xml',
    body: {
      before: `${XML}<sst xmlns="${MAIN}" count="1" uniqueCount="1"><si><t>`,
      fill: '8',
      mb,
      after: '</t></si></sst>',
    },
    declaredSize: 2048,
  });
  return zipOf(parts);
};
