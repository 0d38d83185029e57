import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { Button, type ButtonSize, type ButtonVariant } from './ui';

/**
 * Copies `text` to the clipboard and says so ("Copied"). Without `label` it is an icon button named by
 * `aria-label`. A refused clipboard is reported to `onCopied(false)`, for the caller to say what to do instead.
 */
export function CopyButton({
  text,
  label,
  'aria-label': ariaLabel,
  variant = 'primary',
  size = 'md',
  onCopied,
}: {
  text: string;
  label?: string;
  'aria-label'?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  onCopied?: (copied: boolean) => void;
}) {
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      onCopied?.(true);
    } catch {
      setCopied(false);
      onCopied?.(false);
    }
  }

  return (
    <Button
      variant={variant}
      size={size}
      icon={copied ? Check : Copy}
      aria-label={ariaLabel}
      title={label ? undefined : copied ? 'Copied' : ariaLabel}
      onClick={() => void copy()}
    >
      {label && (copied ? 'Copied' : label)}
    </Button>
  );
}
