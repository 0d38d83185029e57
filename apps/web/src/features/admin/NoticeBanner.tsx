import { X } from 'lucide-react';
import { Alert } from '../../components/ui';

export interface Banner {
  tone: 'error' | 'success';
  text: string;
}

/** The panel's one dismissible banner: an error (stays) or a notice (clears itself). */
export function NoticeBanner({ banner, onDismiss }: { banner: Banner; onDismiss: () => void }) {
  return (
    <div className="relative">
      <Alert tone={banner.tone} className="pr-12">
        <span className="whitespace-pre-line break-words">{banner.text}</span>
      </Alert>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss message"
        className="absolute top-2.5 right-2.5 rounded-md p-1 text-zinc-500 hover:bg-black/5 hover:text-zinc-800"
      >
        <X className="h-4 w-4" />
      </button>
    </div>
  );
}
