// The portal's CSV plumbing (server/files/csv.ts, csv-read.ts): the hand-written field encoding is csv-stringify's
// with the same options, field for field (it is kept by hand for speed only: docs/decisions/023-files-plumbing.md),
// and an uploaded CSV is read by csv-parse into rows with the lines they start on.
import { PassThrough, Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvField, csvFile, csvIccid, csvLine, csvText, CSV_STRINGIFY_OPTIONS, writeCsv } from '#server/files/csv.ts';
import { decodeCsv, readCsvRows, separatorOf } from '#server/files/csv-read.ts';
import { ExportAborted } from '#server/files/streams.ts';

const VALUES = [
  'plain',
  '',
  'a;b',
  'a,b',
  'say "hi"',
  '"',
  'two\nlines',
  'cr\rhere',
  'crlf\r\n',
  ' leading',
  'trailing ',
  '\tTab first',
  '\u00a0no-break',
  'åäö ÅÄÖ € 😀',
  "'=1+1",
  '=1+1',
  'tab\tinside',
];

describe('writing', () => {
  it('encodes each field as csv-stringify does with the same options', () => {
    for (const v of VALUES)
      expect(csvField(v), JSON.stringify(v)).toBe(stringify([[v]], CSV_STRINGIFY_OPTIONS).slice(0, -2));
    expect(csvLine(VALUES.map(csvField))).toBe(stringify([VALUES], CSV_STRINGIFY_OPTIONS));
  });

  it('writes a small file with a BOM, semicolons and CRLF; formulas neutralised, the ICCID behind a tab', () => {
    const file = csvFile(['iccid', 'märkning'], [[csvIccid('89460000000000000001'), csvText('=HYPERLINK("x")')]]);
    expect(file).toBe('\uFEFFiccid;märkning\r\n"\t89460000000000000001";"\'=HYPERLINK(""x"")"\r\n');
  });

  it('streams batches, waiting while the reader is behind, and stops when it has gone away', async () => {
    let taken = '';
    const slow = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _e, cb) {
        taken += chunk.toString();
        setTimeout(cb, 1);
      },
    });
    let read = 0;
    async function* batches() {
      for (let b = 0; b < 5; b++) {
        read++;
        yield [`a${b}`, `b${b}`];
      }
    }
    expect(await writeCsv(slow, ['x'], batches(), (v) => [csvText(v)])).toEqual({ rows: 10 });
    if (!slow.writableFinished) await new Promise((resolve) => slow.on('finish', resolve));
    expect(read).toBe(5);
    expect(taken).toBe('\uFEFFx\r\n' + Array.from({ length: 5 }, (_, b) => `a${b}\r\nb${b}\r\n`).join(''));

    const gone = new PassThrough({ highWaterMark: 4 }).resume();
    let readAfter = 0;
    async function* endless() {
      for (;;) {
        readAfter++;
        if (readAfter === 3) gone.destroy();
        yield ['row'];
      }
    }
    await expect(writeCsv(gone, ['x'], endless(), (v) => [v])).rejects.toBeInstanceOf(ExportAborted);
    expect(readAfter).toBe(3);
  });
});

describe('reading', () => {
  it('finds the separator: semicolon, comma or tab, whichever the first line has most of outside quotes', () => {
    expect(separatorOf('a;b,c;d\n')).toBe(';');
    expect(separatorOf('\n"x;y;z",b,c\n')).toBe(',');
    expect(separatorOf('a\tb\tc')).toBe('\t');
    expect(separatorOf('8946000000000000001\n')).toBe(';');
  });

  it('drops a BOM, reads Windows-1252, and refuses binary', () => {
    expect(decodeCsv(new TextEncoder().encode('\uFEFFiccid'))).toBe('iccid');
    expect(decodeCsv(new Uint8Array([0x6d, 0xe4, 0x72]))).toBe('mär');
    expect(decodeCsv(new Uint8Array([0x61, 0x00, 0x62]))).toBeNull();
    expect(decodeCsv(new Uint8Array([0x61, 0x07, 0x62]))).toBeNull();
  });

  it('reads quoted fields, any line break, blank rows skipped, each row with the line it starts on', () => {
    const text = 'a;b\r\n\r\n"x\r\ny";"q""z"\n  "sp" ; c \n;\n\rlast';
    expect(readCsvRows(text, 10)).toEqual({
      rows: [
        { line: 1, cells: ['a', 'b'] },
        { line: 3, cells: ['x\r\ny', 'q"z'] },
        { line: 5, cells: ['sp', 'c'] },
        { line: 8, cells: ['last'] },
      ],
      total: 4,
    });
  });

  it('keeps the first rows asked for and counts the rest; refuses a quote never closed', () => {
    expect(readCsvRows('1\n2\n3\n', 2)).toEqual({
      rows: [
        { line: 1, cells: ['1'] },
        { line: 2, cells: ['2'] },
      ],
      total: 3,
    });
    expect(readCsvRows('iccid\n"8946;x\n', 10)).toBe('unreadable');
  });
});
