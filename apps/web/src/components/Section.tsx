import { type ReactNode, useId } from 'react';

/**
 * A titled part of a screen below its page header: an h2 with a line under it, `actions` at the line's end,
 * then the content; the region is named by its heading.
 */
export function Section({
  title,
  description,
  actions,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={headingId} className="text-lg font-semibold text-zinc-900">
            {title}
          </h2>
          {description && <p className="mt-1 text-sm text-zinc-600">{description}</p>}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}
