/**
 * A chart drawn by uPlot (canvas, small and fast) with the numbers on hover in
 * a tooltip. It is a picture of a table the page shows beside it, which holds
 * the truth for every reader: the chart is one image with a sentence for its
 * name. Colours are the style sheet's (--chart-*), read again when the system
 * switches between light and dark; the chart follows its box's width.
 *
 * Two shapes: bars over named categories (optionally drawn inside one another,
 * each series a part of the one before: delivered, and of those only this
 * source), and lines over named points (months) or over instants (runs).
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { minute } from './format.js';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  /** Its colour: --chart-<tone> in the style sheet (1–8, other, total). */
  tone: number | 'other' | 'total';
}

export interface ChartProps {
  kind: 'bars' | 'lines';
  /** Category or point names along the x axis (bars; lines over months). */
  labels?: string[];
  /** Instants in seconds along the x axis (lines over time); `labels` then names each one in the tooltip. */
  times?: number[];
  series: ChartSeries[];
  /** One sentence saying what the chart shows: its accessible name (the table gives the numbers). */
  summary: string;
  /** What the y values count, for the tooltip ("papers"). */
  unit: string;
  height?: number;
}

/** Bars drawn inside one another: each narrower than the one before (a share of its slot, and at most so many pixels). */
const BAR_WIDTHS = [0.8, 0.5, 0.25];
const BAR_MOST_PX = 72;

const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
const toneVar = (tone: ChartSeries['tone']) => `--chart-${tone}`;
const shorten = (text: string, max = 20) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const dark = matchMedia('(prefers-color-scheme: dark)');

/** The tooltip: the x value's name, then each series' value at the cursor, written as text (never HTML). */
function tooltip(props: ChartProps): uPlot.Plugin {
  let tip: HTMLDivElement;
  const name = (idx: number) => props.labels?.[idx] ?? String(idx);
  return {
    hooks: {
      init: (u) => {
        tip = document.createElement('div');
        tip.className = 'chart-tip';
        tip.hidden = true;
        u.over.append(tip);
      },
      setCursor: (u) => {
        const idx = u.cursor.idx;
        if (idx === null || idx === undefined || u.cursor.left === undefined || u.cursor.left < 0) {
          tip.hidden = true;
          return;
        }
        const title = document.createElement('p');
        title.className = 'chart-tip-title';
        title.textContent = name(idx);
        const rows = props.series.map((s) => {
          const row = document.createElement('p');
          const swatch = document.createElement('span');
          swatch.className = `swatch tone-${s.tone}`;
          const value = s.values[idx];
          row.append(swatch, `${s.label}: ${value === null || value === undefined ? '—' : `${value.toLocaleString()} ${props.unit}`}`);
          return row;
        });
        tip.replaceChildren(title, ...rows);
        tip.hidden = false;
        // Beside the cursor's column, on the side with room, at the top of the plot: it never covers the value hovered.
        const x = u.valToPos(u.data[0][idx]!, 'x');
        tip.style.left = `${x}px`;
        tip.style.transform = x > u.over.clientWidth / 2 ? 'translateX(calc(-100% - 12px))' : 'translateX(12px)';
      },
    },
  };
}

function options(props: ChartProps, width: number): uPlot.Options {
  const text = cssVar('--muted');
  const grid = cssVar('--border');
  const count = (props.times ?? props.labels ?? []).length;
  const categorical = !props.times;
  const integerTicks = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 1e6];
  const longest = Math.max(0, ...(props.labels ?? []).map((l) => Math.min(l.length, 20)));
  const rotate = categorical && props.kind === 'bars' && count * (longest * 7 + 12) > width - 60;
  const xAxis: uPlot.Axis = { stroke: text, grid: { show: false }, ticks: { stroke: grid }, font: '12px system-ui, sans-serif' };
  if (!categorical) {
    // Instants as the rest of the window writes them (ui/format.ts): days alone once the span is longer than a few,
    // the time with its seconds when it is shorter than an hour (runs one after another would all read the same minute).
    const span = (props.times!.at(-1) ?? 0) - (props.times![0] ?? 0);
    const instant = (t: number) => {
      const text = minute(new Date(t * 1000).toISOString());
      if (span > 3 * 86_400) return text.slice(0, 10);
      if (span >= 3600) return text.slice(5, 16);
      return `${text.slice(11, 16)}:${String(new Date(t * 1000).getSeconds()).padStart(2, '0')}`;
    };
    xAxis.space = 90;
    // Ticks finer than the labels' precision would repeat a label: each is written once, at its first tick.
    xAxis.values = (_u, splits) => splits.map(instant).map((text, i, all) => (i > 0 && all[i - 1] === text ? '' : text));
  }
  if (categorical) {
    // One label per category while they fit, else every n-th: a month axis over years stays readable.
    xAxis.splits = (u) => {
      const step = rotate ? 1 : Math.max(1, Math.ceil(count / Math.max(1, Math.floor(u.width / 72))));
      return Array.from({ length: count }, (_, i) => i).filter((i) => i % step === 0);
    };
    xAxis.values = (_u, splits) => splits.map((i) => shorten(props.labels?.[i] ?? ''));
    if (rotate) {
      xAxis.rotate = -35;
      xAxis.size = Math.min(110, longest * 6 + 20);
    }
  }
  return {
    width,
    height: props.height ?? 260,
    legend: { show: false },
    cursor: { y: false, drag: { x: false, y: false, setScale: false }, points: { show: props.kind === 'lines' } },
    scales: {
      x: categorical ? { time: false, range: [-0.5, Math.max(0.5, count - 0.5)] } : { time: true },
      y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil((max || 0) * 1.08))] },
    },
    axes: [
      xAxis,
      {
        stroke: text,
        grid: { stroke: grid, width: 1 },
        ticks: { show: false },
        incrs: integerTicks,
        values: (_u, splits) => splits.map((v) => v.toLocaleString()),
        font: '12px system-ui, sans-serif',
        size: 48,
      },
    ],
    series: [
      {},
      ...props.series.map((s, i): uPlot.Series => {
        const colour = cssVar(toneVar(s.tone));
        if (props.kind === 'bars') {
          const size = BAR_WIDTHS[Math.min(i, BAR_WIDTHS.length - 1)]!;
          return { label: s.label, stroke: colour, fill: colour, width: 0, paths: uPlot.paths.bars!({ size: [size, (BAR_MOST_PX * size) / BAR_WIDTHS[0]!], align: 0 }), points: { show: false } };
        }
        // Dots mark each value while they can be told apart; over many months the line alone reads better.
        return { label: s.label, stroke: colour, width: s.tone === 'total' ? 2.5 : 1.5, spanGaps: true, points: { show: count <= 60, size: 5, fill: colour } };
      }),
    ],
    plugins: [tooltip(props)],
  };
}

export function Chart(props: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current!;
    const x = props.times ?? (props.labels ?? []).map((_, i) => i);
    const data = [x, ...props.series.map((s) => s.values)] as uPlot.AlignedData;
    let plot: uPlot | null = null;
    const draw = () => {
      plot?.destroy();
      plot = new uPlot(options(props, Math.max(240, element.clientWidth)), data, element);
    };
    draw();
    // Follow the box's width; a new colour scheme means new colours, so the chart is drawn again.
    const resize = new ResizeObserver(() => plot?.setSize({ width: Math.max(240, element.clientWidth), height: props.height ?? 260 }));
    resize.observe(element);
    dark.addEventListener('change', draw);
    return () => {
      resize.disconnect();
      dark.removeEventListener('change', draw);
      plot?.destroy();
    };
  }, [props]);
  return (
    <figure class="chart">
      <div class="chart-canvas" ref={box} role="img" aria-label={props.summary} />
      {props.series.length > 1 && (
        <ul class="chart-legend" aria-hidden="true">
          {props.series.map((s) => (
            <li key={s.label}>
              <span class={`swatch tone-${s.tone}`} />
              {s.label}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
