const LINES: Array<{ time: string; text: string; tone?: 'ok' | 'dim' | 'accent' }> = [
  { time: '12:04:01', text: '→ Cloning acme/storefront@main', tone: 'dim' },
  { time: '12:04:03', text: '→ Provisioning VM (1 GB RAM, 2 vCPUs) on a private network' },
  { time: '12:04:31', text: '→ docker compose build  web  worker  db', tone: 'dim' },
  { time: '12:05:12', text: '  [web] Step 2/2 (multi-stage): COPY --from=build /app/dist ./', tone: 'dim' },
  { time: '12:05:40', text: '✓ 3 containers started (web, worker, db)', tone: 'ok' },
  { time: '12:05:44', text: '✓ Health check passed: web answered in 84 ms', tone: 'ok' },
  { time: '12:05:46', text: '✓ HTTPS certificate issued', tone: 'ok' },
  { time: '12:05:46', text: '● Live at https://web-storefront.slipway.app', tone: 'accent' },
];

const TONES = {
  ok: 'text-emerald-400',
  dim: 'text-zinc-400',
  accent: 'text-accent-300 font-medium',
} as const;

/** A static example of what a deployment log looks like (marketing, not live data). */
export function DeployLogSample() {
  return (
    <figure className="overflow-hidden rounded-xl bg-zinc-950 shadow-2xl ring-1 ring-zinc-900/10">
      <div className="flex items-center gap-2 border-b border-white/10 px-4 py-3">
        <span className="h-3 w-3 rounded-full bg-zinc-700" aria-hidden="true" />
        <span className="h-3 w-3 rounded-full bg-zinc-700" aria-hidden="true" />
        <span className="h-3 w-3 rounded-full bg-zinc-700" aria-hidden="true" />
        <figcaption className="ml-2 text-xs text-zinc-400">Sample deploy log · acme/storefront</figcaption>
      </div>
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable sample must be reachable and scrollable by keyboard
        tabIndex={0}
        className="overflow-x-auto p-4 font-mono text-[13px] leading-6 text-zinc-200"
      >
        {LINES.map((line) => (
          <div key={line.time + line.text}>
            <span className="mr-3 text-zinc-600 select-none">{line.time}</span>
            <span className={line.tone ? TONES[line.tone] : undefined}>{line.text}</span>
          </div>
        ))}
      </pre>
    </figure>
  );
}
