import type { Preview } from '@slipway/contract';
import { ExternalLink } from '../ExternalLink';
import { previewUrls } from './previewView';

/** Each service's URL as a link; the service's name beside it when there are several. */
export function PreviewLinks({ preview }: { preview: Preview }) {
  const urls = previewUrls(preview);
  if (urls.length === 0) return <span className="text-xs text-zinc-500">No URL yet</span>;
  return (
    <ul className="min-w-0 space-y-0.5" aria-label={`URLs of #${preview.number}`}>
      {urls.map(({ service, url }) => (
        <li key={service} className="text-xs">
          {urls.length > 1 && <span className="mr-1 text-zinc-500">{service}:</span>}
          <ExternalLink href={url} className="font-medium break-all text-accent-700">
            {url}
          </ExternalLink>
        </li>
      ))}
    </ul>
  );
}
