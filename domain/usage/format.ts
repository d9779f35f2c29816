// Amounts of data as people read them: decimal units as the plans are sold (1 GB = 1000 MB = 10^9 bytes), a
// Swedish decimal comma, and this month's use against the plan's amount ("1,2 GB av 5 GB", 24 %). Pure: the pages,
// the exports and the tests share it.
import { formatDataAmount } from '#domain/plans/selector.ts';

const UNITS = [
  { unit: 'TB', size: 1e12 },
  { unit: 'GB', size: 1e9 },
  { unit: 'MB', size: 1e6 },
  { unit: 'kB', size: 1e3 },
] as const;

/** One decimal under 10 of a unit ("1,2 GB", "9,9 MB"), whole above ("12 GB", "640 MB"); bytes below a kB. */
export function formatBytes(bytes: number): string {
  for (const { unit, size } of UNITS) {
    if (bytes >= size) {
      const value = bytes / size;
      const rounded = value < 9.95 ? Math.round(value * 10) / 10 : Math.round(value);
      return `${String(rounded).replace('.', ',')} ${unit}`;
    }
  }
  return `${Math.max(0, Math.round(bytes))} B`;
}

export type AgainstPlan = {
  /** "1,2 GB av 5 GB", or only the amount used when the plan has no data amount. */
  text: string;
  /** Whole percent of the plan's amount used (may pass 100), or null without an amount. */
  percent: number | null;
};

/** Bytes used against the plan's data amount in MB (decimal, as the plans are sold). */
export function usageAgainstPlan(bytes: number, dataLimitMb: number | null): AgainstPlan {
  if (!dataLimitMb || dataLimitMb <= 0) return { text: formatBytes(bytes), percent: null };
  return {
    text: `${formatBytes(bytes)} av ${formatDataAmount(dataLimitMb)}`,
    percent: Math.floor((bytes / (dataLimitMb * 1e6)) * 100),
  };
}
