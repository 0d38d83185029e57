/** A description of the document as text, its `backticked` parts (CommonMark code spans) as code. */
export function InlineCode({ text }: { text: string }) {
  const parts = text.split('`');
  // An odd count of backticks leaves the last one unpaired: shown as written.
  if (parts.length % 2 === 0) return <>{text}</>;
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <code key={index} className="rounded bg-zinc-100 px-1 font-mono text-[0.85em] text-zinc-800">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}
