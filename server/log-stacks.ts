// Stack traces in the logs name the TypeScript files and lines (decision 013) without Node's source maps: those keep
// the bundle's map for the life of the process, its sources' text from the start and its 213,000 mappings as arrays
// from the first stack formatted (about 30 MB of a 60 MB heap, marked again by every full collection). Here a logged
// error's stack is mapped when it is logged: the map is read then, kept a minute after its last use, and let go.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';

/** How long a map read for one logged stack is kept for the next (errors come in bursts). */
const KEEP_MS = 60_000;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export type StackMapper = {
  /** The stack with each frame of the generated file named by its source file, line and column. */
  (stack: string): string;
  /** Whether the map is held now (read for a stack less than a minute ago). */
  held: () => boolean;
};

/**
 * Maps the frames of `generated` (an absolute path; `generated.map` beside it, as esbuild writes it) in a stack.
 * Without that map (the tests and `npm run dev`, where tsx maps stacks itself) a stack is left as it is.
 */
export function stackMapper(generated: string, keepMs = KEEP_MS): StackMapper {
  const mapFile = `${generated}.map`;
  // A frame: the file's path or file URL, its line and column (1-based).
  const frame = new RegExp(`(?:file://)?${escaped(generated)}:(\\d+):(\\d+)`, 'g');
  let consumer: SourceMapConsumer | null = null;
  let release: NodeJS.Timeout | null = null;

  const mapOf = (): SourceMapConsumer | null => {
    if (!consumer) {
      if (!existsSync(mapFile)) return null;
      const raw = JSON.parse(readFileSync(mapFile, 'utf8')) as RawSourceMap;
      consumer = new SourceMapConsumer({ ...raw, sourcesContent: undefined });
    }
    if (release) clearTimeout(release);
    release = setTimeout(() => {
      consumer = null;
      release = null;
    }, keepMs).unref();
    return consumer;
  };

  const map = (stack: string): string => {
    if (!stack.includes(generated)) return stack;
    const source = mapOf();
    if (!source) return stack;
    return stack.replace(frame, (whole, line: string, column: string) => {
      const found = source.originalPositionFor({ line: Number(line), column: Number(column) - 1 });
      if (!found.source || found.line === null) return whole;
      return `${path.resolve(path.dirname(generated), found.source)}:${found.line}:${(found.column ?? 0) + 1}`;
    });
  };
  return Object.assign(map, { held: () => consumer !== null });
}
