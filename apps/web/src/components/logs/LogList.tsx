import { useVirtualizer } from '@tanstack/react-virtual';
import { type RefObject, useEffect } from 'react';
import { cn } from '../ui';
import { isAtBottom, type LogLevel, type LogLine, shortTime } from './logParsing';

const ROW_HEIGHT = 20;

const LEVEL_CLASSES: Record<LogLevel, string> = {
  error: 'text-red-400',
  warning: 'text-amber-300',
  success: 'text-emerald-400',
  info: 'text-zinc-200',
};

/**
 * The log lines, virtualised: only the rows in view exist in the DOM, so 100,000 lines scroll as
 * smoothly as 100. Text goes in as React text children — markup in a line is shown, never run.
 */
export function LogList({
  lines,
  version,
  autoScroll,
  onAutoScrollChange,
  scrollRef,
}: {
  lines: LogLine[];
  version: number;
  autoScroll: boolean;
  onAutoScrollChange: (on: boolean) => void;
  scrollRef: RefObject<HTMLDivElement | null>;
}) {
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
    getItemKey: (index) => lines[index]?.id ?? index,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: version marks new lines in the mutable buffer
  useEffect(() => {
    if (autoScroll && lines.length > 0) virtualizer.scrollToIndex(lines.length - 1, { align: 'end' });
  }, [version, autoScroll, lines.length, virtualizer]);

  return (
    <div
      ref={scrollRef}
      data-testid="log-scroll"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable and scrollable by keyboard
      tabIndex={0}
      onScroll={(event) => {
        const atBottom = isAtBottom(event.currentTarget);
        if (!atBottom && autoScroll) onAutoScrollChange(false);
      }}
      className="h-[28rem] overflow-auto rounded-lg bg-zinc-950 font-mono text-xs leading-5"
    >
      <div role="log" aria-live="off" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const line = lines[item.index];
          if (!line) return null;
          return (
            <div
              key={item.key}
              data-testid="log-line"
              data-level={line.level}
              className="absolute left-0 flex w-max min-w-full gap-3 px-3 whitespace-pre hover:bg-white/5"
              style={{ top: item.start, height: ROW_HEIGHT }}
            >
              <span className="shrink-0 text-zinc-500">{shortTime(line.timestamp)}</span>
              {line.service && <span className="shrink-0 text-sky-400">{line.service}</span>}
              <span className={cn(LEVEL_CLASSES[line.level])}>{line.text}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
