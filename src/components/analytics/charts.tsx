import type { ReactNode } from 'react';

/**
 * Charts as server-rendered SVG: no chart library and no script in the browser. The SVG draws
 * only shapes (it stretches to any width); every label is HTML text beside it, so it stays
 * readable on a phone. There are no tooltips: the table next to each chart carries the numbers.
 */

export interface Point {
  label: string;
  value: number;
  /** a part of value drawn apart (the bonus within the credit) */
  part?: number;
}

/** A round number at or above `max` for the top of the axis (1, 2, 2.5, 5 × 10^n). */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

export function ChartFrame({ id, title, summary, chart, table }: { id: string; title: string; summary?: ReactNode; chart: ReactNode; table: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-md border bg-card p-4" data-testid={`chart-${id}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="text-base font-semibold">
          {title}
        </h2>
        {summary ? <p className="text-sm text-muted-foreground">{summary}</p> : null}
      </div>
      <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
        <div className="min-w-0">{chart}</div>
        <div className="min-w-0">{table}</div>
      </div>
    </section>
  );
}

/** Vertical bars over time: the axis top and zero on the left, the first, middle and last dates below. */
export function TimeBars({ title, points, format, partLabel }: { title: string; points: Point[]; format: (n: number) => string; partLabel?: string }) {
  const top = niceMax(Math.max(0, ...points.map((p) => p.value)));
  const width = Math.max(points.length, 1) * 10;
  const ticks = points.length > 2 ? [points[0]!, points[Math.floor(points.length / 2)]!, points.at(-1)!] : points;
  return (
    <figure className="flex flex-col gap-1">
      <div className="flex gap-2">
        <div className="flex h-44 w-16 shrink-0 flex-col justify-between text-right text-xs text-muted-foreground" aria-hidden="true">
          <span>{format(top)}</span>
          <span>{format(top / 2)}</span>
          <span>{format(0)}</span>
        </div>
        <svg viewBox={`0 0 ${width} 100`} preserveAspectRatio="none" className="h-44 min-w-0 flex-1" role="img" aria-label={`${title}; the numbers are in the table beside it`}>
          {[0, 50, 100].map((y) => (
            <line key={y} x1={0} x2={width} y1={y} y2={y} className="stroke-border" strokeWidth={1} vectorEffect="non-scaling-stroke" />
          ))}
          {points.map((p, i) => {
            const h = (p.value / top) * 100;
            const part = p.part ? (p.part / top) * 100 : 0;
            return (
              <g key={p.label} data-value={p.value}>
                <rect x={i * 10 + 1.5} y={100 - h} width={7} height={h - part} className="fill-primary" />
                {part > 0 ? <rect x={i * 10 + 1.5} y={100 - part} width={7} height={part} className="fill-warning" /> : null}
              </g>
            );
          })}
        </svg>
      </div>
      <div className="ml-18 flex justify-between text-xs text-muted-foreground" aria-hidden="true">
        {ticks.map((p) => (
          <span key={p.label}>{p.label}</span>
        ))}
      </div>
      {partLabel ? (
        <figcaption className="ml-18 flex flex-wrap gap-4 text-xs text-muted-foreground">
          <span className="flex items-center gap-1">
            <span className="inline-block size-3 rounded-sm bg-primary" aria-hidden="true" /> Credit
          </span>
          <span className="flex items-center gap-1">
            <span className="inline-block size-3 rounded-sm bg-warning" aria-hidden="true" /> {partLabel}
          </span>
        </figcaption>
      ) : null}
    </figure>
  );
}

/** Horizontal bars, one row each: the label and value as text, the bar as SVG. */
export function RankBars({ title, points, format, empty }: { title: string; points: Point[]; format: (n: number) => string; empty: string }) {
  if (points.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  const top = Math.max(1, ...points.map((p) => p.value));
  return (
    <figure aria-label={title}>
      <ul className="flex flex-col gap-3">
        {points.map((p) => (
          <li key={p.label} className="flex flex-col gap-1">
            <div className="flex justify-between gap-3 text-sm">
              <span className="min-w-0 break-words">{p.label}</span>
              <span className="shrink-0 font-medium tabular-nums">{format(p.value)}</span>
            </div>
            <svg viewBox="0 0 100 4" preserveAspectRatio="none" className="h-3 w-full" aria-hidden="true">
              <rect x={0} y={0} width={100} height={4} className="fill-muted" />
              <rect x={0} y={0} width={(p.value / top) * 100} height={4} className="fill-primary" data-value={p.value} />
            </svg>
          </li>
        ))}
      </ul>
    </figure>
  );
}
