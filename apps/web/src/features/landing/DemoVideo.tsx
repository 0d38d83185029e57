import { Play } from 'lucide-react';
import { useState } from 'react';
import { usePublicConfig } from '../../api/publicConfig';

/** A screenshot of Slipway's own dashboard (taken by the walkthrough browser test). */
const POSTER = '/demo-poster.jpg';

/**
 * The demo video, embedded from the URL the server is configured with (DEMO_VIDEO_URL). Nothing
 * from the video host loads until the visitor clicks the poster; without a URL the poster alone is
 * shown.
 */
export function DemoVideo() {
  const config = usePublicConfig();
  const videoUrl = config.data?.demo_video_url ?? null;
  const [playing, setPlaying] = useState(false);
  const frame =
    'mx-auto mt-12 block aspect-video w-full max-w-4xl overflow-hidden rounded-xl bg-zinc-900 shadow-xl ring-1 ring-zinc-200';

  if (videoUrl && playing) {
    return (
      <div className={frame}>
        <iframe
          src={videoUrl}
          title="Slipway demo video"
          className="h-full w-full"
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
        />
      </div>
    );
  }
  const poster = (
    <img
      src={POSTER}
      alt="The Slipway dashboard of a deployed workspace"
      width={1280}
      height={800}
      className="h-full w-full object-cover object-top"
    />
  );
  if (!videoUrl) return <figure className={frame}>{poster}</figure>;
  return (
    <button
      type="button"
      className={`${frame} group relative cursor-pointer`}
      onClick={() => setPlaying(true)}
      aria-label="Play the Slipway demo video"
    >
      {poster}
      <span className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-zinc-950/40 transition group-hover:bg-zinc-950/30">
        <span className="flex h-16 w-16 items-center justify-center rounded-full bg-white text-accent-700 shadow-lg">
          <Play className="ml-1 h-7 w-7" aria-hidden="true" />
        </span>
        <span className="rounded-md bg-zinc-950/70 px-3 py-1 text-sm font-medium text-white">
          Watch the demo video
        </span>
      </span>
    </button>
  );
}
