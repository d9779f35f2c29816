// The camera barcode scanner for the ICCID. Loaded only when the user opens it (add.tsx imports this
// module on the button press, and this module fetches quagga2 at once), driven by the state machine
// in machine.ts. Manual entry stays possible whatever happens here; no camera stays on after close,
// navigation or a hidden tab.
import type { QuaggaJSResultObject } from '@ericblade/quagga2';
import { useCallback, useEffect, useRef, useState, type ChangeEvent, type CSSProperties } from 'react';
import { tScanner } from '#domain/texts/scanner.ts';
import {
  cameraProblem,
  cameraSupport,
  constraintsFor,
  readMemory,
  safeLocalStorage,
  writeMemory,
  type CameraProblem,
} from './camera.ts';
import { closeCameraInTurn, openCamera, serial } from './live.ts';
import { afterAccept, fileScan, freshRead, move, type LastRead, type ScanMode, type ScannerState } from './machine.ts';
import { decodeImage, type QuaggaApi } from './quagga.ts';
import { insideBox, judge, REJECTS_BEFORE_HINT, scanBox, type RejectReason } from './rules.ts';

export type ScannerProps = {
  /**
   * Called once with an accepted ICCID, the camera already off; in continuous mode called for each code
   * read (a code still in view only once), the camera staying on.
   */
  onAccept: (iccid: string) => void;
  /** 'continuous' (the bulk list): the scanner stays open after a code; default 'single'. */
  mode?: ScanMode;
};

let quaggaModule: Promise<QuaggaApi> | null = null;
function loadQuagga(): Promise<QuaggaApi> {
  quaggaModule ??= import('@ericblade/quagga2').then(
    (m) => (m as { default?: QuaggaApi }).default ?? (m as unknown as QuaggaApi),
  );
  // A failed download may be retried on the next attempt.
  quaggaModule.catch(() => (quaggaModule = null));
  return quaggaModule;
}
// Start the download together with this chunk rather than after the first render.
if (typeof window !== 'undefined') void loadQuagga().catch(() => undefined);

const HINT_MS = 4000;
type Size = { width: number; height: number };
type Camera = { id: string; label: string };

function logProblem(message: string, detail?: unknown) {
  console.error(`[scanner] ${message}`, ...(detail === undefined ? [] : [detail]));
}

export function Scanner({ onAccept, mode = 'single' }: ScannerProps) {
  const [state, setState] = useState<ScannerState>('notStarted');
  const [starting, setStarting] = useState(false);
  const [readingFile, setReadingFile] = useState(false);
  const [problem, setProblem] = useState<CameraProblem | 'load' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [hint, setHint] = useState<RejectReason | null>(null);
  const [videoSize, setVideoSize] = useState<Size | null>(null);
  const [cameras, setCameras] = useState<Camera[]>([]);
  const [cameraId, setCameraId] = useState<string | null>(null);

  const stateRef = useRef<ScannerState>('notStarted');
  const targetRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const quaggaRef = useRef<QuaggaApi | null>(null);
  const frameRef = useRef<Size>({ width: 0, height: 0 });
  const wantedRef = useRef(0); // bumps on every open and close: an older open then knows it is not wanted
  const rejectsRef = useRef(0);
  const hintTimer = useRef<ReturnType<typeof setTimeout>>();
  const resumeOnVisible = useRef(false);
  const acceptedRef = useRef(false);
  const onAcceptRef = useRef(onAccept);
  onAcceptRef.current = onAccept;
  const modeRef = useRef(mode);
  modeRef.current = mode;
  const lastReadRef = useRef<LastRead>(null);
  const startingRef = useRef(starting);
  startingRef.current = starting;
  const cameraIdRef = useRef(cameraId);
  cameraIdRef.current = cameraId;

  /** Every state change goes through the machine; a refused one is shown and logged, never silent. */
  const go = useCallback((to: ScannerState): boolean => {
    const m = move(stateRef.current, to);
    if (!m.ok) {
      setNotice(tScanner.refused[m.reason]);
      logProblem(`refused ${m.from} -> ${m.to}: ${tScanner.refused[m.reason]}`);
      return false;
    }
    stateRef.current = to;
    setState(to);
    return true;
  }, []);

  const showProblem = useCallback((p: CameraProblem | 'load', detail?: unknown) => {
    setProblem(p);
    logProblem(tScanner.problems[p], detail);
  }, []);

  // Declared before use by onDetected; assigned below.
  const shutdownRef = useRef<() => Promise<void>>(async () => {});

  const onDetected = useCallback((result: QuaggaJSResultObject) => {
    if (stateRef.current !== 'scanning' || acceptedRef.current) return;
    // Only a code read inside the scan box counts, as the box on screen promises.
    const frame = frameRef.current;
    if (!result.line || !insideBox(result.line, scanBox(frame.width, frame.height))) return;
    const verdict = judge(result.codeResult?.code);
    if (verdict.kind === 'accepted') {
      if (afterAccept(modeRef.current, stateRef.current) === 'scanning') {
        // Continuous: the camera stays on; a label still in view is told once, not fifteen times a second.
        const now = Date.now();
        if (!freshRead(lastReadRef.current, verdict.iccid, now)) return;
        lastReadRef.current = { code: verdict.iccid, at: now };
        rejectsRef.current = 0;
        setHint(null);
        onAcceptRef.current(verdict.iccid);
        return;
      }
      acceptedRef.current = true;
      void shutdownRef.current().then(() => onAcceptRef.current(verdict.iccid));
    } else if (verdict.kind === 'rejected') {
      rejectsRef.current += 1;
      // The newest reject decides the text: the code in the box now is the one the user is looking at.
      if (rejectsRef.current >= REJECTS_BEFORE_HINT) setHint(verdict.reason);
      clearTimeout(hintTimer.current);
      hintTimer.current = setTimeout(() => {
        setHint(null);
        rejectsRef.current = 0;
      }, HINT_MS);
    }
  }, []);

  const start = useCallback(
    async (preferred: string | null) => {
      if (stateRef.current !== 'notStarted') {
        go('scanning'); // refused: shows why
        return;
      }
      setNotice(null);
      setProblem(null);
      const unsupported = cameraSupport(window);
      if (unsupported) return showProblem(unsupported);
      const target = targetRef.current;
      if (!target) return;
      const wanted = ++wantedRef.current;
      const stillWanted = () => wantedRef.current === wanted;
      setStarting(true);
      try {
        const quagga = (quaggaRef.current = await loadQuagga().catch((err) => {
          showProblem('load', err);
          return null;
        }));
        if (!quagga || !stillWanted()) return;
        let camera;
        try {
          camera = await openCamera(quagga, target, constraintsFor(preferred), onDetected, stillWanted);
        } catch (err) {
          // A remembered camera that is gone: fall back to the rear camera.
          if (!preferred || cameraProblem(err) !== 'notFound') throw err;
          camera = await openCamera(quagga, target, constraintsFor(null), onDetected, stillWanted);
        }
        if (!camera) return;
        frameRef.current = camera.frame;
        setVideoSize(camera.video);
        rejectsRef.current = 0;
        go('scanning');
        setCameraId(camera.deviceId);
        writeMemory(safeLocalStorage(), { permissionGranted: true, cameraId: camera.deviceId });
        void listCameras().then(setCameras);
      } catch (err) {
        if (!stillWanted()) return;
        const p = cameraProblem(err);
        if (p === 'denied')
          writeMemory(safeLocalStorage(), { ...readMemory(safeLocalStorage()), permissionGranted: false });
        showProblem(p, err);
      } finally {
        if (stillWanted()) setStarting(false);
      }
    },
    [go, onDetected, showProblem],
  );

  /** Camera off, from any state; the machine decides whether that is a move. */
  const shutdown = useCallback(async () => {
    wantedRef.current++;
    setStarting(false);
    const quagga = quaggaRef.current;
    if (stateRef.current !== 'notStarted') go('notStarted');
    if (quagga) await closeCameraInTurn(quagga, videoRef.current, onDetected);
  }, [go, onDetected]);
  shutdownRef.current = shutdown;

  const stop = () => {
    if (go('notStarted')) void shutdown();
  };

  const pause = () => {
    if (go('paused')) quaggaRef.current?.pause();
  };

  const resume = () => {
    if (stateRef.current !== 'paused') {
      go('scanning');
      return;
    }
    if (go('scanning')) quaggaRef.current?.start();
  };

  const chooseCamera = async (e: ChangeEvent<HTMLSelectElement>) => {
    const id = e.currentTarget.value;
    setCameraId(id);
    writeMemory(safeLocalStorage(), {
      permissionGranted: readMemory(safeLocalStorage()).permissionGranted,
      cameraId: id,
    });
    if (stateRef.current !== 'notStarted') {
      await shutdown();
      await start(id);
    }
  };

  const scanFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const allowed = fileScan(stateRef.current);
    if (!allowed.ok || starting) {
      setNotice(tScanner.refused.fileWhileRunning);
      logProblem(tScanner.refused.fileWhileRunning, { state: stateRef.current });
      return;
    }
    setNotice(null);
    setReadingFile(true);
    const url = URL.createObjectURL(file);
    try {
      const quagga = await loadQuagga().catch((err) => {
        showProblem('load', err);
        return null;
      });
      if (!quagga) return;
      const verdict = await serial(() => decodeImage(quagga, url));
      if (verdict.kind === 'accepted') {
        if (modeRef.current === 'single') acceptedRef.current = true;
        onAcceptRef.current(verdict.iccid);
        return;
      }
      const message = verdict.kind === 'rejected' ? tScanner.file[verdict.reason] : tScanner.file.noBarcode;
      setNotice(message);
      logProblem(message, verdict);
    } catch (err) {
      setNotice(tScanner.file.unreadable);
      logProblem(tScanner.file.unreadable, err);
    } finally {
      URL.revokeObjectURL(url);
      setReadingFile(false);
    }
  };

  // Open: show remembered cameras at once (labels are readable once permission was granted), then start.
  useEffect(() => {
    const memory = readMemory(safeLocalStorage());
    if (memory.permissionGranted) {
      setCameraId(memory.cameraId);
      void listCameras().then(setCameras);
    }
    void start(memory.permissionGranted ? memory.cameraId : null);
    return () => {
      clearTimeout(hintTimer.current);
      void shutdownRef.current();
    };
  }, [start]);

  // A hidden tab turns the camera off; coming back turns it on again if it was on.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        if (stateRef.current !== 'notStarted' || startingRef.current) {
          resumeOnVisible.current = true;
          void shutdownRef.current();
        }
      } else if (resumeOnVisible.current && !acceptedRef.current) {
        resumeOnVisible.current = false;
        void start(cameraIdRef.current);
      }
    };
    const onPageHide = () => void shutdownRef.current();
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', onPageHide);
    };
  }, [start]);

  const busy = starting || readingFile;
  const status = readingFile
    ? tScanner.readingFile
    : starting
      ? tScanner.starting
      : state === 'scanning'
        ? tScanner.scanning
        : state === 'paused'
          ? tScanner.paused
          : tScanner.stopped;
  const live = state !== 'notStarted';
  const box = videoSize && live ? boxStyle(videoSize) : null;

  return (
    <section id="scanner" className="scanner" aria-label={tScanner.title} data-state={state}>
      <div
        className="scanner-view"
        style={
          videoSize && live
            ? ({ '--scanner-ar': (videoSize.width / videoSize.height).toFixed(4) } as CSSProperties)
            : undefined
        }
      >
        <div ref={targetRef} className="scanner-video" hidden={!live}>
          <video ref={videoRef} muted playsInline autoPlay />
        </div>
        {box ? <div className="scanner-box" style={box} aria-hidden="true" /> : null}
        {/* The status line below says what is going on; the dark picture only shows a camera symbol. */}
        {!live ? (
          <div className="scanner-placeholder" aria-hidden="true">
            <svg
              viewBox="0 0 24 24"
              width="48"
              height="48"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.5"
              strokeLinecap="round"
              strokeLinejoin="round"
            >
              <path d="M3 8.5A1.5 1.5 0 0 1 4.5 7h2.6l1.4-2h7l1.4 2h2.6A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" />
              <circle cx="12" cy="13" r="3.5" />
            </svg>
          </div>
        ) : null}
      </div>
      <p className="scanner-status" role="status">
        {status}
      </p>
      {hint && live ? <p className="scanner-hint">{tScanner.rejectedHint[hint]}</p> : null}
      {problem ? (
        <p className="notice error" role="alert">
          {tScanner.problems[problem]}
        </p>
      ) : null}
      {notice ? (
        <p className="notice error" role="alert">
          {notice}
        </p>
      ) : null}
      {cameras.length > 1 ? (
        <div className="field scanner-camera">
          <label htmlFor="scanner-camera">{tScanner.camera}</label>
          <select id="scanner-camera" value={cameraId ?? ''} onChange={chooseCamera} disabled={busy}>
            {cameraId && !cameras.some((c) => c.id === cameraId) ? (
              <option value={cameraId}>{tScanner.camera}</option>
            ) : null}
            {!cameraId ? <option value="">{tScanner.camera}</option> : null}
            {cameras.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="scanner-actions">
        {state === 'scanning' ? (
          <button type="button" className="btn" onClick={pause}>
            {tScanner.pause}
          </button>
        ) : null}
        {state === 'paused' ? (
          <button type="button" className="btn" onClick={resume}>
            {tScanner.resume}
          </button>
        ) : null}
        {live ? (
          <button type="button" className="btn" onClick={stop}>
            {tScanner.stop}
          </button>
        ) : (
          <button type="button" className="btn" onClick={() => void start(cameraId)} disabled={busy}>
            {tScanner.start}
          </button>
        )}
        <label className="btn scanner-file" aria-disabled={live || busy ? 'true' : undefined}>
          {tScanner.fromFile}
          <input
            type="file"
            accept="image/*"
            capture
            onChange={scanFile}
            disabled={live || busy}
            aria-describedby="scanner-file-hint"
          />
        </label>
      </div>
      <p id="scanner-file-hint" className="hint">
        {tScanner.fromFileHint} {tScanner.manual}
      </p>
    </section>
  );
}

export default Scanner;

async function listCameras(): Promise<Camera[]> {
  try {
    const devices = await navigator.mediaDevices.enumerateDevices();
    return devices
      .filter((d) => d.kind === 'videoinput' && d.deviceId)
      .map((d, i) => ({ id: d.deviceId, label: d.label || tScanner.cameraN(i + 1) }));
  } catch (err) {
    logProblem('enumerateDevices failed', err);
    return [];
  }
}

/** The scan box over the picture, in percent of the picture, so it scales with the layout. */
function boxStyle({ width, height }: Size) {
  const box = scanBox(width, height);
  const pct = (v: number) => `${(v * 100).toFixed(3)}%`;
  return {
    left: pct(box.x / width),
    top: pct(box.y / height),
    width: pct(box.side / width),
    height: pct(box.side / height),
  };
}
