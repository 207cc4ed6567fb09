import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { Currency } from "../../../sdk/src/types/index.js";
import type { BalancePoint } from "../balances.js";

/** A step chart of the ledger balance (major units), drawn by uPlot on a canvas; times in UTC. */
export function BalanceChart({ points, currency }: { points: BalancePoint[]; currency: Currency }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const scale = 10 ** currency.decimals;
    const data: uPlot.AlignedData = [points.map((p) => p.t), points.map((p) => p.balance / scale)];
    const chart = new uPlot(
      {
        width: Math.max(320, element.clientWidth || 640),
        height: 240,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
        cursor: { show: false },
        legend: { show: false },
        scales: { x: { time: true } },
        axes: [
          {},
          {
            values: (_u, ticks) => ticks.map((v) => `${currency.symbol}${v.toLocaleString("en-US")}`),
            size: 80,
          },
        ],
        series: [
          {},
          {
            label: `Balance (${currency.code})`,
            stroke: "#1f6feb",
            width: 2,
            fill: "rgba(31,111,235,0.08)",
            paths: uPlot.paths.stepped?.({ align: 1 }),
            points: { show: true, size: 5 },
          },
        ],
      },
      data,
      element,
    );
    return () => chart.destroy();
  }, [points, currency]);
  return (
    <div ref={host} class="chart" data-testid="balance-chart" role="img" aria-label="Balance over time" />
  );
}
