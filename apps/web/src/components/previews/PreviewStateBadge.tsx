import { PREVIEW_STATE_LABELS, type Preview } from '@slipway/contract';
import { Loader2 } from 'lucide-react';
import { Badge } from '../ui';
import { isMoving, PREVIEW_STATE_TONES } from './previewView';

/** The state's badge (turning while it moves by itself), and under it why it is not Live, when there is a why. */
export function PreviewStateBadge({ preview, showCause = true }: { preview: Preview; showCause?: boolean }) {
  const moving = isMoving(preview);
  return (
    <div className="max-w-xs space-y-1">
      <Badge
        tone={PREVIEW_STATE_TONES[preview.state]}
        dot={!moving}
        icon={moving ? <Loader2 className="h-3 w-3 animate-spin" aria-hidden="true" /> : undefined}
      >
        {PREVIEW_STATE_LABELS[preview.state]}
      </Badge>
      {showCause && preview.cause && <p className="text-xs text-zinc-700">{preview.cause}</p>}
    </div>
  );
}
