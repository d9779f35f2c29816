// Real barcodes through the real decoder: bwip-js draws them, quagga2 (its Node build) reads them with
// the scanner's own configuration and acceptance rule (app/scanner/quagga.ts). Only the valid ICCID passes.
import Quagga from '@ericblade/quagga2';
import type bwipjs from 'bwip-js/node';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage, fileConfig } from '#app/scanner/quagga.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { barcodePng } from '#tests/helpers/barcode.ts';
import { code128Checksum, iccidWithFnc1Checksum } from '#tests/helpers/iccid.ts';

const quagga = Quagga;
const ICCID = withCheckDigit('8946071234567890123');
let dir: string;

async function png(name: string, options: bwipjs.RenderOptions): Promise<string> {
  const file = path.join(dir, `${name}.png`);
  writeFileSync(file, await barcodePng(options));
  return file;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'scanner-decode-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('decoding photos with quagga2 in Node', () => {
  it('accepts a Code 128 of a valid 20-digit ICCID (file path and data URL)', async () => {
    const file = await png('valid', { bcid: 'code128', text: ICCID });
    expect(await decodeImage(quagga, file)).toEqual({ kind: 'accepted', iccid: ICCID });
    const dataUrl = `data:image/png;base64,${readFileSync(file).toString('base64')}`;
    expect(await decodeImage(quagga, dataUrl, [800])).toEqual({ kind: 'accepted', iccid: ICCID });
  });

  it('reads an ICCID whose Code 128 checksum symbol is 102, the value FNC1 has (patched in quagga2)', async () => {
    // Unpatched, quagga2 returned this one with a trailing group separator (the FNC1 it read the checksum as),
    // so the scanner refused it as no ICCID however often the label was shown: about one SIM in a hundred.
    const iccid = '89467222517473471803';
    expect(code128Checksum(iccid)).toBe(102);
    expect(withCheckDigit(iccid.slice(0, 19))).toBe(iccid);
    expect(code128Checksum(iccidWithFnc1Checksum('8946712345678901'))).toBe(102);
    expect(await decodeImage(quagga, await png('fnc1-checksum', { bcid: 'code128', text: iccid }))).toEqual({
      kind: 'accepted',
      iccid,
    });
    // Its neighbours (other checksums) were read before and still are.
    const other = withCheckDigit('8946711251747347180');
    expect(code128Checksum(other)).not.toBe(102);
    expect(await decodeImage(quagga, await png('neighbour', { bcid: 'code128', text: other }))).toEqual({
      kind: 'accepted',
      iccid: other,
    });
  });

  it('reads but rejects a 19-digit code and a text code', async () => {
    const short = ICCID.slice(0, 19);
    expect(await decodeImage(quagga, await png('short', { bcid: 'code128', text: short }))).toEqual({
      kind: 'rejected',
      text: short,
      reason: 'notIccid',
    });
    expect(await decodeImage(quagga, await png('text', { bcid: 'code128', text: 'SIM-LAGER-7' }))).toEqual({
      kind: 'rejected',
      text: 'SIM-LAGER-7',
      reason: 'notIccid',
    });
  });

  it('rejects an ICCID-length code whose check digit is wrong', async () => {
    const wrong = ICCID.slice(0, 19) + String((Number(ICCID[19]) + 1) % 10);
    expect(await decodeImage(quagga, await png('wrong', { bcid: 'code128', text: wrong }))).toEqual({
      kind: 'rejected',
      text: wrong,
      reason: 'checkDigit',
    });
  });

  it('finds no barcode in a QR code of the same ICCID (Code 128 only)', async () => {
    const qr = await png('qr', { bcid: 'qrcode', text: ICCID, scale: 6 });
    expect(await decodeImage(quagga, qr)).toEqual({ kind: 'none' });
  });

  it('finds nothing in a picture that is not a Code 128 at all (EAN-13)', async () => {
    // The same decoder with every reader would read this EAN-13; ours reads Code 128 only.
    const ean = await png('ean', { bcid: 'ean13', text: '731234567890', height: 20 }); // bwip-js adds the check digit
    const any = await quagga.decodeSingle({ ...fileConfig(ean, 800), decoder: { readers: ['ean_reader'] } });
    expect(any?.codeResult?.code).toMatch(/^731234567890\d$/);
    expect(await decodeImage(quagga, ean)).toEqual({ kind: 'none' });
  });
});
