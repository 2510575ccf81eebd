/** Small SVG plots, drawn by hand: no chart library, nothing loaded from elsewhere. */

const W = 560;
const H = 180;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

export const PLANE_COLORS: Record<string, string> = {
  planning: '#7c5cbf',
  history: '#c0792b',
  'long-term': '#2f7d5b',
  documents: '#3d6fb6',
};

function scale(max: number, size: number): (value: number) => number {
  return (value) => (max <= 0 ? 0 : (value / max) * size);
}

function YAxis({ max, label }: { max: number; label: string }) {
  const innerH = H - PAD.top - PAD.bottom;
  return (
    <g class="axis">
      <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={H - PAD.bottom} />
      <line x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} />
      <text x={PAD.left - 6} y={PAD.top + 4} text-anchor="end">
        {max}
      </text>
      <text x={PAD.left - 6} y={PAD.top + innerH} text-anchor="end">
        0
      </text>
      <text x={4} y={PAD.top + innerH / 2} class="axis-label">
        {label}
      </text>
    </g>
  );
}

/** A line over time, e.g. units in memory by day. */
export function LinePlot(props: {
  title: string;
  points: { x: string; y: number }[];
  unit: string;
}) {
  const { title, points, unit } = props;
  if (points.length === 0) return <p class="empty">{title}: nothing to plot yet.</p>;
  const max = Math.max(...points.map((point) => point.y), 1);
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const y = scale(max, innerH);
  const x = (i: number) =>
    PAD.left + (points.length === 1 ? innerW / 2 : (i / (points.length - 1)) * innerW);
  const path = points
    .map(
      (point, i) =>
        `${i ? 'L' : 'M'}${x(i).toFixed(1)},${(H - PAD.bottom - y(point.y)).toFixed(1)}`,
    )
    .join(' ');
  return (
    <figure class="plot">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${title}: ${points.length} points, up to ${max} ${unit}`}
      >
        <YAxis max={max} label={unit} />
        <path d={path} class="line" />
        {points.map((point, i) => (
          <circle key={point.x} cx={x(i)} cy={H - PAD.bottom - y(point.y)} r={3} class="dot">
            <title>{`${point.x}: ${point.y} ${unit}`}</title>
          </circle>
        ))}
        <text x={PAD.left} y={H - 8}>
          {points[0]!.x}
        </text>
        <text x={W - PAD.right} y={H - 8} text-anchor="end">
          {points[points.length - 1]!.x}
        </text>
      </svg>
      <figcaption>{title}</figcaption>
    </figure>
  );
}

export interface StackedBar {
  label: string;
  parts: Record<string, number>;
}

/** Bars split by series (tokens per plane, outcomes per pattern), with a legend. */
export function StackedBars(props: {
  title: string;
  bars: StackedBar[];
  colors: Record<string, string>;
  unit: string;
}) {
  const { title, bars, colors, unit } = props;
  if (bars.length === 0) return <p class="empty">{title}: nothing to plot yet.</p>;
  const series = Object.keys(colors);
  const total = (bar: StackedBar) => series.reduce((sum, key) => sum + (bar.parts[key] ?? 0), 0);
  const max = Math.max(...bars.map(total), 1);
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const y = scale(max, innerH);
  const step = innerW / bars.length;
  const width = Math.max(2, Math.min(28, step * 0.7));
  return (
    <figure class="plot">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${title}: ${bars.length} bars, up to ${max} ${unit}`}
      >
        <YAxis max={max} label={unit} />
        {bars.map((bar, i) => {
          let base = H - PAD.bottom;
          return (
            <g key={`${bar.label}-${i}`}>
              <title>{`${bar.label}: ${series.map((key) => `${key} ${bar.parts[key] ?? 0}`).join(', ')}`}</title>
              {series.map((key) => {
                const height = y(bar.parts[key] ?? 0);
                base -= height;
                return (
                  <rect
                    key={key}
                    x={PAD.left + i * step + (step - width) / 2}
                    y={base}
                    width={width}
                    height={height}
                    fill={colors[key]}
                  />
                );
              })}
            </g>
          );
        })}
      </svg>
      <figcaption>
        {title}
        <span class="legend">
          {series.map((key) => (
            <span key={key}>
              <i style={{ background: colors[key] }} /> {key}
            </span>
          ))}
        </span>
      </figcaption>
    </figure>
  );
}
