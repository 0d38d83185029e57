import { Link } from 'react-router';

export function LogoMark({ className = 'h-8 w-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
      <rect width="32" height="32" rx="8" className="fill-accent-600" />
      <path d="M7 20h18l-3 5H10z" fill="#fff" />
      <path d="M16 6v12M16 6l6 8h-6" stroke="#fff" strokeWidth="2" fill="none" strokeLinejoin="round" />
    </svg>
  );
}

export function Logo() {
  return (
    <Link to="/" className="flex items-center gap-2 rounded-md" aria-label="Slipway home">
      <LogoMark />
      <span className="text-lg font-semibold tracking-tight text-zinc-900">Slipway</span>
    </Link>
  );
}
