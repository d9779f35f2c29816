// The scanner's pure parts: the state machine (every allowed and refused move, the file-scan rule),
// the acceptance rule, the scan box, and how camera failures and memory are read.
import type { QuaggaJSResultObject } from '@ericblade/quagga2';
import { describe, expect, it } from 'vitest';
import { cameraProblem, cameraSupport, constraintsFor, readMemory, writeMemory } from '#app/scanner/camera.ts';
import { canScanFile, fileScan, move, next, type ScannerState } from '#app/scanner/machine.ts';
import { decodedTexts } from '#app/scanner/quagga.ts';
import { FRAMES_PER_SECOND, insideBox, judge, READERS, SCAN_BOX_RATIO, scanBox } from '#app/scanner/rules.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { tScanner } from '#domain/texts/scanner.ts';

const STATES: ScannerState[] = ['notStarted', 'scanning', 'paused'];

describe('scanner state machine', () => {
  const allowed: Array<[ScannerState, ScannerState]> = [
    ['notStarted', 'scanning'],
    ['scanning', 'paused'],
    ['paused', 'scanning'],
    ['scanning', 'notStarted'],
    ['paused', 'notStarted'],
  ];

  it.each(allowed)('allows %s -> %s', (from, to) => {
    expect(move(from, to)).toEqual({ ok: true, from, to });
    expect(next(from, to)).toBe(to);
  });

  it('refuses every other move with a reason that has a Swedish text, keeping the state', () => {
    const refused = STATES.flatMap((from) => STATES.map((to) => [from, to] as const)).filter(
      ([from, to]) => !allowed.some(([a, b]) => a === from && b === to),
    );
    expect(refused).toHaveLength(4); // 9 pairs, 5 allowed
    for (const [from, to] of refused) {
      const m = move(from, to);
      expect(m.ok, `${from} -> ${to}`).toBe(false);
      if (m.ok) continue;
      expect(tScanner.refused[m.reason]).toMatch(/\S/);
      expect(next(from, to)).toBe(from);
    }
  });

  it('refuses notStarted -> paused because the scanner is not scanning', () => {
    expect(move('notStarted', 'paused')).toEqual({
      ok: false,
      from: 'notStarted',
      to: 'paused',
      reason: 'notScanning',
    });
    expect(move('paused', 'paused')).toMatchObject({ ok: false, reason: 'notScanning' });
    expect(move('notStarted', 'notStarted')).toMatchObject({ ok: false, reason: 'notRunning' });
    expect(move('scanning', 'scanning')).toMatchObject({ ok: false, reason: 'alreadyScanning' });
  });

  it('allows a file scan only while not started', () => {
    expect(fileScan('notStarted')).toEqual({ ok: true });
    expect(fileScan('scanning')).toEqual({ ok: false, reason: 'fileWhileRunning' });
    expect(fileScan('paused')).toEqual({ ok: false, reason: 'fileWhileRunning' });
    expect(STATES.filter(canScanFile)).toEqual(['notStarted']);
  });

  it('walks a whole session: start, pause, resume, stop, and a file scan only at the ends', () => {
    let s: ScannerState = 'notStarted';
    const log: string[] = [];
    for (const to of ['paused', 'scanning', 'paused', 'paused', 'scanning', 'notStarted'] as ScannerState[]) {
      const m = move(s, to);
      log.push(`${s}->${to}:${m.ok ? 'ok' : m.reason}:${canScanFile(s) ? 'file' : '-'}`);
      s = next(s, to);
    }
    expect(log).toEqual([
      'notStarted->paused:notScanning:file',
      'notStarted->scanning:ok:file',
      'scanning->paused:ok:-',
      'paused->paused:notScanning:-',
      'paused->scanning:ok:-',
      'scanning->notStarted:ok:-',
    ]);
    expect(canScanFile(s)).toBe(true);
  });
});

describe('scan acceptance', () => {
  const valid = withCheckDigit('8946071234567890123');

  it('accepts exactly 20 digits with a valid check digit, and nothing else', () => {
    expect(judge(valid)).toEqual({ kind: 'accepted', iccid: valid });
    const wrongCheck = valid.slice(0, 19) + String((Number(valid[19]) + 1) % 10);
    for (const text of [
      valid.slice(0, 19),
      valid + '0',
      `${valid} `,
      ` ${valid}`,
      valid.replace(/(\d{4})/g, '$1 ').trim(),
      'A' + valid.slice(1),
      'https://example.se',
    ]) {
      expect(judge(text), text).toEqual({ kind: 'rejected', text, reason: 'notIccid' });
    }
    // 20 digits with a wrong check digit is an ICCID misread or mislabelled: the user is told so.
    expect(judge(wrongCheck)).toEqual({ kind: 'rejected', text: wrongCheck, reason: 'checkDigit' });
    expect(judge('')).toEqual({ kind: 'none' });
    expect(judge(null)).toEqual({ kind: 'none' });
    expect(judge(undefined)).toEqual({ kind: 'none' });
  });

  it('reads Code 128 only at 15 frames a second', () => {
    expect(READERS).toEqual(['code_128_reader']);
    expect(FRAMES_PER_SECOND).toBe(15);
  });

  it('collects texts from one or several decoder results', () => {
    const info = { error: 0, code: 0, start: 0, end: 0 };
    const r = (code: string | null, barcodes?: QuaggaJSResultObject[]): QuaggaJSResultObject => ({
      codeResult: {
        code,
        start: 0,
        end: 0,
        codeset: 0,
        startInfo: info,
        decodedCodes: [],
        endInfo: info,
        direction: 1,
        format: 'code_128',
      },
      barcodes,
      line: [],
      angle: 0,
      pattern: [],
      box: [],
      boxes: [],
    });
    expect(decodedTexts(null)).toEqual([]);
    expect(decodedTexts(r('1'))).toEqual(['1']);
    expect(decodedTexts([r('1'), r(null), r('2')])).toEqual(['1', '2']);
    expect(decodedTexts(r(null, [r('3'), r('')]))).toEqual(['3']);
  });
});

describe('scan box', () => {
  it('is a centred square of 85% of the smaller side, in landscape and portrait', () => {
    expect(SCAN_BOX_RATIO).toBe(0.85);
    const land = scanBox(800, 600);
    expect(land.side).toBeCloseTo(510);
    expect(land.x).toBeCloseTo(145);
    expect(land.y).toBeCloseTo(45);
    const port = scanBox(600, 800);
    expect(port).toEqual({ x: land.y, y: land.x, side: land.side });
  });

  it('takes a scan line only when it lies wholly inside the box', () => {
    const box = scanBox(800, 600);
    expect(
      insideBox(
        [
          { x: 200, y: 300 },
          { x: 600, y: 300 },
        ],
        box,
      ),
    ).toBe(true);
    expect(
      insideBox(
        [
          { x: 100, y: 300 },
          { x: 600, y: 300 },
        ],
        box,
      ),
    ).toBe(false);
    expect(
      insideBox(
        [
          { x: 200, y: 20 },
          { x: 600, y: 20 },
        ],
        box,
      ),
    ).toBe(false);
    expect(insideBox([], box)).toBe(false);
  });
});

describe('camera conditions and memory', () => {
  const gum = { mediaDevices: { getUserMedia: () => undefined } };
  it('names an insecure context before a missing API', () => {
    expect(cameraSupport({ isSecureContext: false, navigator: {} })).toBe('insecure');
    expect(cameraSupport({ isSecureContext: true, navigator: {} })).toBe('unsupported');
    expect(cameraSupport({ isSecureContext: true, navigator: { mediaDevices: {} } })).toBe('unsupported');
    expect(cameraSupport({ isSecureContext: true, navigator: gum })).toBeNull();
  });

  it('maps getUserMedia failures to what the user is told', () => {
    const err = (name: string) => Object.assign(new Error(name), { name });
    expect(cameraProblem(err('NotAllowedError'))).toBe('denied');
    expect(cameraProblem(err('NotFoundError'))).toBe('notFound');
    expect(cameraProblem(err('OverconstrainedError'))).toBe('notFound');
    expect(cameraProblem(err('NotReadableError'))).toBe('inUse');
    expect(cameraProblem(new Error('Unable to play video stream'))).toBe('failed');
    expect(cameraProblem('boom')).toBe('failed');
    for (const p of ['unsupported', 'insecure', 'denied', 'notFound', 'inUse', 'failed', 'load'] as const)
      expect(tScanner.problems[p]).toMatch(/\S/);
  });

  it('asks for the rear camera unless one was chosen', () => {
    expect(constraintsFor(null)).toMatchObject({ facingMode: 'environment' });
    expect(constraintsFor('cam-2')).toMatchObject({ deviceId: { exact: 'cam-2' } });
    expect(constraintsFor('cam-2')).not.toHaveProperty('facingMode');
  });

  it('remembers permission and the last camera, and survives bad or missing storage', () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    };
    expect(readMemory(storage)).toEqual({ permissionGranted: false, cameraId: null });
    writeMemory(storage, { permissionGranted: true, cameraId: 'cam-2' });
    expect(readMemory(storage)).toEqual({ permissionGranted: true, cameraId: 'cam-2' });
    data.set([...data.keys()][0]!, '{not json');
    expect(readMemory(storage)).toEqual({ permissionGranted: false, cameraId: null });
    expect(readMemory(null)).toEqual({ permissionGranted: false, cameraId: null });
    expect(() =>
      writeMemory(
        {
          setItem: () => {
            throw new Error('QuotaExceededError');
          },
        },
        { permissionGranted: true, cameraId: null },
      ),
    ).not.toThrow();
  });
});
