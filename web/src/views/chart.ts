/**
 * The calls-over-time chart: uPlot (MIT, 51 KB minified, no dependencies; docs/web.md says why),
 * served from dist/web and loaded on the first visit to #/activity, never from a CDN.
 */
import type uPlot from 'uplot';
import type { Bucket } from '../api.js';
import { h } from '../dom.js';

const HEIGHT = 220;
let library: Promise<typeof uPlot> | undefined;

/** uPlot's script, added once (a plain script from our origin: the CSP allows it, no eval). */
function loadUplot(): Promise<typeof uPlot> {
  library ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = 'uplot.iife.min.js';
    script.onload = () => resolve((globalThis as unknown as { uPlot: typeof uPlot }).uPlot);
    script.onerror = () => {
      library = undefined;
      reject(
        new Error('cannot load the chart (uplot.iife.min.js); run `npm run build` in the Carte checkout'),
      );
    };
    document.head.append(script);
  });
  return library;
}

/** A line of calls per bucket with a red dot on every bucket that had errors; resizes with the window. */
export async function callsChart(series: Bucket[], unit: string): Promise<HTMLElement> {
  const UPlot = await loadUplot();
  const calls = series.reduce((n, b) => n + b.calls, 0);
  const errors = series.reduce((n, b) => n + b.errors, 0);
  const box = h('div', {
    class: 'chart',
    role: 'img',
    'aria-label': `Calls per ${unit}: ${calls} calls, ${errors} errors in all`,
  });
  const css = getComputedStyle(document.documentElement);
  const color = (name: string) => css.getPropertyValue(name).trim();
  const axis = {
    stroke: color('--muted'),
    grid: { stroke: color('--line'), width: 1 },
    ticks: { show: false },
  };
  const opts: uPlot.Options = {
    width: chartWidth(),
    height: HEIGHT,
    scales: {
      x: { time: true },
      y: { range: (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, Math.max(1, max)] },
    },
    axes: [axis, { ...axis, size: 40 }],
    series: [
      {},
      { label: 'Calls', stroke: color('--accent'), width: 2, points: { show: false } },
      {
        label: 'Errors',
        stroke: color('--danger'),
        paths: () => null,
        points: { show: true, size: 9, fill: color('--danger'), stroke: color('--danger') },
      },
    ],
  };
  // Errors are markers: a bucket without errors has none (null), not a dot at zero.
  const data: uPlot.AlignedData = [
    series.map((b) => b.at / 1000),
    series.map((b) => b.calls),
    series.map((b) => (b.errors > 0 ? b.errors : null)),
  ];
  const plot = new UPlot(opts, data, box);
  const resize = () => {
    if (!box.isConnected) return window.removeEventListener('resize', resize);
    plot.setSize({ width: chartWidth(box), height: HEIGHT });
  };
  window.addEventListener('resize', resize);
  return box;
}

/** The width the chart may take: its box's once drawn, <main>'s content box before. */
function chartWidth(box?: HTMLElement): number {
  const el = box?.isConnected ? box : document.getElementById('main')!;
  const style = getComputedStyle(el);
  const inner = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return Math.max(200, Math.floor(inner));
}
