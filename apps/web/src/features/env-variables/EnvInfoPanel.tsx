import { ClipboardPaste, FileText, ShieldCheck, Upload } from 'lucide-react';

/** How to fill the editor: paste, drop a file, the formats understood, and where the values go. */
export function EnvInfoPanel() {
  const item = 'flex gap-3';
  const icon = 'mt-0.5 h-4 w-4 shrink-0 text-sky-600';
  return (
    <div className="rounded-xl border border-sky-200 bg-sky-50 p-5 text-sm text-sky-900">
      <ul className="grid gap-3 sm:grid-cols-2">
        <li className={item}>
          <ClipboardPaste className={icon} aria-hidden="true" />
          <span>
            <strong className="font-medium">Paste KEY=VALUE lines</strong> into any field — several lines at
            once fill one row each.
          </span>
        </li>
        <li className={item}>
          <Upload className={icon} aria-hidden="true" />
          <span>
            <strong className="font-medium">Drop a .env or .txt file</strong> here, or use Upload .env File.
          </span>
        </li>
        <li className={item}>
          <FileText className={icon} aria-hidden="true" />
          <span>
            <strong className="font-medium">Supported formats:</strong> <code>KEY=value</code>,{' '}
            <code>KEY="quoted value"</code>, <code>KEY='single quoted'</code>; lines starting with # are
            comments.
          </span>
        </li>
        <li className={item}>
          <ShieldCheck className={icon} aria-hidden="true" />
          <span>
            <strong className="font-medium">Stored encrypted</strong> and securely available to every
            container of your app as environment variables.
          </span>
        </li>
      </ul>
    </div>
  );
}
