import { BookOpen, ChevronDown } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Spinner } from '../../components/ui';
import { Markdown } from '../../components/ui/Markdown';

/** The static guide at /troubleshooting-guide.md, collapsed until asked for; markdown only, no raw HTML. */
export function TroubleshootingGuide() {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!open || text !== null) return;
    let cancelled = false;
    fetch('/troubleshooting-guide.md')
      .then((response) =>
        response.ok ? response.text() : Promise.reject(new Error(String(response.status))),
      )
      .then((body) => !cancelled && setText(body))
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [open, text]);

  return (
    <div className="rounded-xl border border-zinc-200 bg-white shadow-sm">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        className="flex w-full items-center justify-between gap-3 px-5 py-4 text-left"
      >
        <span className="inline-flex items-center gap-2 font-semibold text-zinc-900">
          <BookOpen className="h-5 w-5 text-accent-600" aria-hidden="true" /> Troubleshooting Guide
        </span>
        <ChevronDown
          className={`h-5 w-5 text-zinc-400 transition ${open ? 'rotate-180' : ''}`}
          aria-hidden="true"
        />
      </button>
      {open && (
        <div className="border-t border-zinc-100 px-5 py-4" data-testid="troubleshooting-guide">
          {failed ? (
            <p className="text-sm text-zinc-500">The troubleshooting guide could not be loaded.</p>
          ) : text === null ? (
            <p className="flex items-center gap-2 text-sm text-zinc-500">
              <Spinner size="sm" /> Loading guide...
            </p>
          ) : (
            <div className="markdown-guide max-h-[32rem] space-y-3 overflow-y-auto text-sm leading-relaxed text-zinc-700 [&_code]:rounded [&_code]:bg-zinc-100 [&_code]:px-1 [&_code]:font-mono [&_code]:text-xs [&_h1]:text-lg [&_h1]:font-semibold [&_h1]:text-zinc-900 [&_h2]:mt-5 [&_h2]:font-semibold [&_h2]:text-zinc-900 [&_h3]:mt-3 [&_h3]:font-medium [&_h3]:text-zinc-900 [&_li]:ml-5 [&_ol]:list-decimal [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-zinc-950 [&_pre]:p-3 [&_pre]:text-zinc-100 [&_pre_code]:bg-transparent [&_pre_code]:text-zinc-100 [&_ul]:list-disc">
              <Markdown skipHtml>{text}</Markdown>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
