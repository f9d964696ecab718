import type { ReactNode } from 'react';
import { TableWrap } from './TableWrap';

/** A chart with its caption and the same numbers as a table, for screen readers and for copying. */
export function ChartFigure({
  title,
  children,
  columns,
  rows,
}: {
  title: string;
  children: ReactNode;
  columns: string[];
  rows: (string | number)[][];
}) {
  return (
    <figure className="chart" aria-label={title}>
      <figcaption>{title}</figcaption>
      <div className="chart-area" aria-hidden="true">
        {children}
      </div>
      <details>
        <summary>{title}: data table</summary>
        <TableWrap>
          <table>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr key={i}>
                  {row.map((cell, j) => (
                    <td key={j}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
    </figure>
  );
}

/** Charts are pictures of the table under them: no keyboard stop of their own (Recharts adds one by default). */
export const CHART_A11Y = { accessibilityLayer: false } as const;

/** Tooltip entries in the text colour: the series colours are too light to read as text on white. */
export const TOOLTIP = { itemStyle: { color: '#1f2937' } } as const;

export const COLORS = { primary: '#2754c5', secondary: '#d9792b', tertiary: '#2f9a6a', muted: '#8a8f98' };
