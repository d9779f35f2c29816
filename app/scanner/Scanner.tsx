// Long: one camera's lifecycle (open, close, a hidden tab, another camera, a photo) sharing its refs;
// its rules are in machine.ts, rules.ts and live.ts, its panel in app/components/scanner/ScannerPanel.tsx.
// The camera barcode scanner for the ICCID. Loaded only when the user opens it (add.tsx imports this
// module on the button press, and this module fetches quagga2 at once), driven by the state machine
// in machine.ts. Manual entry stays possible whatever happens here; no camera stays on after close,
// navigation or a hidden tab.
import type { QuaggaJSResultObject } from '@ericblade/quagga2';
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { ScannerPanel, type Size } from '#app/components/scanner/ScannerPanel.tsx';
import { tScanner } from '#domain/texts/scanner.ts';
import {
  cameraProblem,
  cameraSupport,
  listCameras,
  constraintsFor,
  readMemory,
  safeLocalStorage,
  writeMemory,
  type Camera,
  type CameraProblem,
} from './camera.ts';
import { closeCameraInTurn, openCamera, serial } from './live.ts';
import { afterAccept, fileScan, freshRead, move, type LastRead, type ScanMode, type ScannerState } from './machine.ts';
import { loadQuagga } from './load.ts';
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

// Start the download together with this chunk rather than after the first render.
if (typeof window !== 'undefined') void loadQuagga().catch(() => undefined);

const HINT_MS = 4000;

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
  return (
    <ScannerPanel
      state={state}
      busy={busy}
      status={status}
      targetRef={targetRef}
      videoRef={videoRef}
      videoSize={videoSize}
      hint={hint}
      problem={problem}
      notice={notice}
      cameras={cameras}
      cameraId={cameraId}
      onCamera={(e) => void chooseCamera(e)}
      onPause={pause}
      onResume={resume}
      onStop={stop}
      onStart={() => void start(cameraId)}
      onFile={(e) => void scanFile(e)}
    />
  );
}

export default Scanner;
