// Small line charts through uPlot (bundled into the binary like every console file).
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import { language } from "./i18n.ts";

const COLOURS = ["#2563eb", "#d97706", "#059669", "#9333ea", "#dc2626"];

export type Series = { label: string; values: (number | null)[]; colour?: string; dash?: number[] };
/** A chart of series over x. `time` makes x Unix seconds shown as dates; `range` fixes the x axis (percentiles: 0–100). */
export type Chart = { title: string; x: number[]; series: Series[]; time?: boolean; summary?: string; height?: number; range?: [number, number] };

/** The figure carries a text summary too, for people who cannot see the picture. */
export function LineChart(chart: Chart) {
  const figure = useRef<HTMLElement>(null);
  // uPlot measures the figure, so it is drawn once the figure is in the page.
  useEffect(() => {
    const frame = requestAnimationFrame(() => figure.current && drawChart(figure.current, chart));
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <figure class="chart" data-chart={chart.title} ref={figure}>
      <figcaption>{chart.title}</figcaption>
      <p class="sr-only">{chart.summary ?? chart.title}</p>
    </figure>
  );
}

function drawChart(figure: HTMLElement, { x, series, time = false, height = 180, range }: Chart): void {
  const width = Math.max(260, (figure.clientWidth || 600) - 20);
  const [min, max] = [Math.min(...x), Math.max(...x)];
  // A single x value (one day of memories) would otherwise stretch the axis over years.
  const pad = min === max ? (time ? 86_400 : 1) : 0;
  // The axes in the page's colours (console.css: light or dark).
  const style = getComputedStyle(figure);
  const ink = style.getPropertyValue("--muted").trim() || "#555";
  const grid = { stroke: style.getPropertyValue("--line").trim() || "#ddd", width: 1 };
  new uPlot(
    {
      width,
      height,
      scales: { x: { time, range: range ?? [min - pad, max + pad] } },
      // Dates in the reader's language (uPlot's own names are English); a template with hours keeps the time.
      fmtDate: (template: string) => {
        const format = new Intl.DateTimeFormat(
          language(),
          /\{h/.test(template)
            ? { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", second: /\{ss/.test(template) ? "2-digit" : undefined }
            : { year: /YYYY/.test(template) && !/D/.test(template) ? "numeric" : undefined, month: "short", day: /D/.test(template) ? "numeric" : undefined },
        );
        return (date: Date) => format.format(date);
      },
      // The legend names each line; uPlot's live values read "--" until the pointer is over the chart.
      legend: { live: false },
      axes: [
        {
          stroke: ink,
          grid,
          // A date label ("Jan 5, 10:00 AM", "1月5日 10:00") is wide: ticks stand far enough apart that labels never run together.
          space: time ? 120 : 40,
          values: time ? undefined : (_u: uPlot, ticks: number[]) => ticks.map((t) => (Number.isInteger(t) ? t : "")),
        },
        { stroke: ink, grid, size: 64 },
      ],
      series: [{}, ...series.map((s, i) => ({ label: s.label, stroke: s.colour ?? COLOURS[i % COLOURS.length], width: 2, dash: s.dash, points: { show: x.length < 40 } }))],
    },
    [x, ...series.map((s) => s.values)] as uPlot.AlignedData,
    figure,
  );
}
