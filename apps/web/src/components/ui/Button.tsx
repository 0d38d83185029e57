import type { LucideIcon } from 'lucide-react';
import type { ButtonHTMLAttributes } from 'react';
import { Link, type LinkProps } from 'react-router';
import { cn } from './cn';
import { Spinner } from './Spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'inverted';
export type ButtonSize = 'sm' | 'md' | 'lg';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-accent-600 text-white shadow-sm hover:bg-accent-700 active:bg-accent-800',
  secondary: 'border border-zinc-300 bg-white text-zinc-900 shadow-sm hover:bg-zinc-50 hover:border-zinc-400',
  ghost: 'text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-700',
  inverted: 'bg-white text-zinc-900 shadow-sm hover:bg-zinc-100',
};
const SIZES: Record<ButtonSize, string> = {
  sm: 'h-8 px-3 text-sm gap-1.5',
  md: 'h-10 px-4 text-sm gap-2',
  lg: 'h-12 px-6 text-base gap-2',
};

export function buttonClasses(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'md',
  className?: string,
) {
  return cn(
    'inline-flex shrink-0 items-center justify-center rounded-lg font-medium whitespace-nowrap transition-colors',
    'disabled:cursor-not-allowed disabled:opacity-60',
    VARIANTS[variant],
    SIZES[size],
    className,
  );
}

/** A decorative icon before the label, hidden from screen readers; h-4 w-4 unless `iconClassName` says otherwise. */
interface IconProps {
  icon?: LucideIcon | undefined;
  iconClassName?: string;
}

function ButtonIcon({ icon: Icon, iconClassName = 'h-4 w-4' }: IconProps) {
  return Icon ? <Icon className={iconClassName} aria-hidden="true" /> : null;
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, IconProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  loading?: boolean;
}

export function Button({
  variant,
  size,
  loading = false,
  icon,
  iconClassName,
  className,
  children,
  disabled,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClasses(variant, size, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <Spinner size="sm" /> : <ButtonIcon icon={icon} iconClassName={iconClassName} />}
      {children}
    </button>
  );
}

/** A router link that looks like a button. */
export function ButtonLink({
  variant,
  size,
  className,
  icon,
  iconClassName,
  children,
  ...rest
}: LinkProps & IconProps & { variant?: ButtonVariant; size?: ButtonSize }) {
  return (
    <Link className={buttonClasses(variant, size, className)} {...rest}>
      <ButtonIcon icon={icon} iconClassName={iconClassName} />
      {children}
    </Link>
  );
}
