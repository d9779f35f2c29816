// Bytes per day as bars (issue 39): server-rendered SVG, readable without JavaScript, on a phone and in both themes
// (colours from the theme's tokens through app/styles/usage.css, never in the markup: the CSP takes no inline
// styles). The bars stretch to any width (no text inside the SVG to stretch with them); the figures around it are
// HTML. Its text alternative: the SVG is one image named by its caption (total and highest day), and the numbers
// are a table behind a <details>, closed by default. Plain props, so the SIM page and the company's /usage share it.
import { formatBytes } from '#domain/usage/format.ts';

export type ChartDay = { day: string; bytes: number };

export type DayChartLabels = {
  /** The chart's name ("Förbrukning per dag, senaste 30 dagarna"). */
  title: string;
  /** "Totalt 1,2 GB" for a formatted total. */
  total: (amount: string) => string;
  /** "Högsta dag 120 MB" for a formatted amount. */
  max: (amount: string) => string;
  /** The <details>' summary ("Visa som tabell"). */
  table: string;
  day: string;
  amount: string;
};

/** The bars' height in the viewBox: one unit per day across, 100 up. */
const HEIGHT = 100;

const dayLabel = new Intl.DateTimeFormat('sv-SE', { day: 'numeric', month: 'short', timeZone: 'UTC' });
/** A day (YYYY-MM-DD) as "28 nov." (its calendar day, whatever the reader's zone). */
export const shortDay = (day: string) => dayLabel.format(new Date(`${day}T00:00:00Z`));

export function DayChart({ days, labels, id }: { days: ChartDay[]; labels: DayChartLabels; id: string }) {
  const max = days.reduce((m, d) => Math.max(m, d.bytes), 0);
  const total = days.reduce((sum, d) => sum + d.bytes, 0);
  const captionId = `${id}-caption`;
  const first = days[0];
  const last = days.at(-1);
  return (
    <figure className="daychart">
      <figcaption id={captionId} className="daychart-caption">
        <span className="daychart-title">{labels.title}</span>
        <span className="daychart-figures">
          <span>{labels.total(formatBytes(total))}</span>
          <span>{labels.max(formatBytes(max))}</span>
        </span>
      </figcaption>
      <svg
        className="daychart-svg"
        viewBox={`0 0 ${Math.max(days.length, 1)} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-labelledby={captionId}
        focusable="false"
      >
        <line className="daychart-grid" x1={0} x2={days.length} y1={HEIGHT / 2} y2={HEIGHT / 2} />
        <line className="daychart-axis" x1={0} x2={days.length} y1={HEIGHT} y2={HEIGHT} />
        {days.map((d, i) => {
          if (d.bytes <= 0 || max <= 0) return null;
          // A day with little traffic still shows: at least one unit high.
          const h = Math.max(1, (d.bytes / max) * (HEIGHT - 2));
          return (
            <rect key={d.day} className="daychart-bar" x={i + 0.12} width={0.76} y={HEIGHT - h} height={h}>
              <title>{`${shortDay(d.day)}: ${formatBytes(d.bytes)}`}</title>
            </rect>
          );
        })}
      </svg>
      {first && last ? (
        <div className="daychart-days" aria-hidden="true">
          <span>{shortDay(first.day)}</span>
          <span>{shortDay(last.day)}</span>
        </div>
      ) : null}
      <details className="daychart-table">
        <summary>{labels.table}</summary>
        <table>
          <caption className="visually-hidden">{labels.title}</caption>
          <thead>
            <tr>
              <th scope="col">{labels.day}</th>
              <th scope="col" className="num">
                {labels.amount}
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <td>{d.day}</td>
                <td className="num">{formatBytes(d.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
