import { Suspense } from 'react';
import type { Options } from 'react-markdown';
import { lazyComponent } from '../../lib/lazyComponent';
import { Spinner } from './Spinner';

// react-markdown and its parsers are the biggest library a screen uses: fetched when markdown is first shown.
const LoadedMarkdown = lazyComponent(() => import('react-markdown'), 'default');

/** react-markdown's <Markdown>, loaded on first render; a spinner stands in meanwhile. */
export function Markdown(props: Readonly<Options>) {
  return (
    <Suspense fallback={<Spinner className="text-accent-600" />}>
      <LoadedMarkdown {...props} />
    </Suspense>
  );
}
