import { CheckCircle2, Circle, Loader2, XCircle } from 'lucide-react';
import { cn } from '../../components/ui';
import type { DisplayStatus, DisplayStep } from './deployProgress';

const ICONS: Record<DisplayStatus, { icon: typeof Circle; className: string; label: string }> = {
  completed: { icon: CheckCircle2, className: 'text-emerald-600', label: 'Completed' },
  failed: { icon: XCircle, className: 'text-red-600', label: 'Failed' },
  in_progress: { icon: Loader2, className: 'animate-spin text-accent-600', label: 'In progress' },
  pending: { icon: Circle, className: 'text-zinc-300', label: 'Pending' },
};

/** Turns 'deploy-application' into 'Deploy application'; names with spaces stay as they are. */
export function stepTitle(name: string): string {
  if (/\s/.test(name)) return name;
  const words = name
    .replace(/[-_]+/g, ' ')
    .trim()
    .replace(/\b(vm|ssl|url|dns)\b/gi, (acronym) => acronym.toUpperCase());
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function StepList({ steps }: { steps: DisplayStep[] }) {
  return (
    <ol className="space-y-1" data-testid="step-list">
      {steps.map((step) => {
        const { icon: Icon, className, label } = ICONS[step.status];
        return (
          <li
            key={step.name}
            data-status={step.status}
            className={cn(
              'flex items-start gap-3 rounded-lg px-3 py-2.5',
              step.status === 'in_progress' && 'bg-accent-50',
              step.status === 'failed' && 'bg-red-50',
            )}
          >
            <Icon className={cn('mt-0.5 h-5 w-5 shrink-0', className)} aria-label={label} />
            <div className="min-w-0">
              <p
                className={cn(
                  'text-sm font-medium',
                  step.status === 'pending' ? 'text-zinc-500' : 'text-zinc-900',
                )}
              >
                {stepTitle(step.name)}
              </p>
              {step.description && <p className="text-xs text-zinc-500">{step.description}</p>}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
