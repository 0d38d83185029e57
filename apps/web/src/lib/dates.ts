/** A date the way people read it ('Jan 5, 2025'), or a dash when there is none or it is not a date. */
export function formatDate(value: string | null | undefined): string {
  const date = parse(value);
  return date ? date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) : '—';
}

/** A date and time the way people read it ('Jan 5, 2025, 02:30 PM'); a number is seconds since 1970. */
export function formatDateTime(value: string | number | null | undefined): string {
  const date = parse(value);
  return date
    ? date.toLocaleString(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      })
    : '—';
}

function parse(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
