import { KeyRound, Network, ShieldCheck, TerminalSquare } from 'lucide-react';

const POINTS = [
  {
    icon: Network,
    title: 'Bastion-style isolation',
    text: 'VMs sit on a private network with no exposed VM ports. Only your HTTPS endpoints are reachable.',
  },
  {
    icon: TerminalSquare,
    title: 'No SSH access',
    text: 'There is no SSH access to the VM — nothing to leak, nothing to brute-force. Deploys, logs and metrics go through Slipway.',
  },
  {
    icon: KeyRound,
    title: 'Secrets in a key vault',
    text: 'Environment variables and secrets go through a key vault integration and never appear in build logs.',
  },
  {
    icon: ShieldCheck,
    title: 'Your code stays yours',
    text: 'Slipway reads only the repositories you grant to the GitHub App, and you can revoke access at any time.',
  },
];

export function SecuritySection() {
  return (
    <section id="security" aria-labelledby="security-title" className="bg-zinc-950 py-20 text-white sm:py-24">
      <div className="mx-auto grid max-w-6xl gap-12 px-4 sm:px-6 lg:grid-cols-3">
        <div>
          <p className="text-sm font-semibold tracking-wide text-accent-300 uppercase">Security</p>
          <h2 id="security-title" className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">
            Secure by design, not by configuration
          </h2>
          <p className="mt-4 text-lg text-zinc-400">
            Each deployment runs on its own isolated virtual machine. You never open a port or manage a key.
          </p>
        </div>
        <ul className="grid gap-6 sm:grid-cols-2 lg:col-span-2">
          {POINTS.map((point) => (
            <li key={point.title} className="rounded-xl border border-white/10 bg-white/[0.03] p-6">
              <point.icon className="h-6 w-6 text-accent-300" aria-hidden="true" />
              <h3 className="mt-4 font-semibold">{point.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-zinc-400">{point.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
